import { randomUUID } from 'node:crypto';
import { decideAndAppend } from '@shop/shared/eventstore/command';
import type { PostgresEventStore } from '@shop/shared/eventstore/postgres-event-store';
import {
  decideAddressBook,
  evolveAddressBook,
  initialAddressBookState,
  type AddressBookCommand,
} from './address-book/decider.ts';
import { addressBookStreamId, type AddressFields } from './address-book/events.ts';

const ADDRESS_BOOK = { initialState: initialAddressBookState, evolve: evolveAddressBook, decide: decideAddressBook };

/** Application service: each user's saved addresses. Methods answer the stream version (for read-your-writes). */
export class Addresses {
  constructor(
    private readonly store: PostgresEventStore,
    private readonly clock: () => Date,
  ) {}

  async add(
    userId: string,
    fields: AddressFields,
    opts: { makeDefault?: boolean } = {},
  ): Promise<{ addressId: string; version: number }> {
    const addressId = randomUUID();
    const version = await this.run(userId, (now) => ({
      type: 'AddAddress',
      data: { userId, addressId, fields, makeDefault: opts.makeDefault ?? false, now },
    }));
    return { addressId, version };
  }

  /** Changes the given fields (others keep their value); makeDefault makes it the default address. */
  update(
    userId: string,
    addressId: string,
    changes: Partial<AddressFields>,
    opts: { makeDefault?: boolean } = {},
  ): Promise<number> {
    return this.run(userId, (now) => ({
      type: 'UpdateAddress',
      data: { userId, addressId, changes, makeDefault: opts.makeDefault ?? false, now },
    }));
  }

  remove(userId: string, addressId: string): Promise<number> {
    return this.run(userId, (now) => ({ type: 'RemoveAddress', data: { userId, addressId, now } }));
  }

  private run(userId: string, command: (now: Date) => AddressBookCommand): Promise<number> {
    return decideAndAppend(this.store, addressBookStreamId(userId), ADDRESS_BOOK, () => command(this.clock()), userId);
  }
}
