import { isDeepStrictEqual } from 'node:util';
import { ConflictError, NotFoundError, ValidationError } from '@shop/shared/errors/errors';
import { MAX_ADDRESSES, type AddressBookEvent, type AddressFields } from './events.ts';

export type AddressBookState = {
  /** Saved addresses in the order they were added. */
  addresses: ReadonlyArray<{ addressId: string; fields: AddressFields }>;
  /** Always one of the saved addresses while any exist. */
  defaultAddressId: string | null;
};

export type AddressBookCommand =
  | {
      type: 'AddAddress';
      data: { userId: string; addressId: string; fields: AddressFields; makeDefault: boolean; now: Date };
    }
  | {
      type: 'UpdateAddress';
      data: { userId: string; addressId: string; changes: Partial<AddressFields>; makeDefault: boolean; now: Date };
    }
  | { type: 'RemoveAddress'; data: { userId: string; addressId: string; now: Date } };

export const initialAddressBookState = (): AddressBookState => ({ addresses: [], defaultAddressId: null });

export function evolveAddressBook(state: AddressBookState, event: AddressBookEvent): AddressBookState {
  switch (event.type) {
    case 'AddressAdded': {
      const { userId: _u, addressId, addedAt: _a, ...fields } = event.data;
      return { ...state, addresses: [...state.addresses, { addressId, fields }] };
    }
    case 'AddressUpdated': {
      const { userId: _u, addressId, updatedAt: _a, ...fields } = event.data;
      return {
        ...state,
        addresses: state.addresses.map((a) => (a.addressId === addressId ? { addressId, fields } : a)),
      };
    }
    case 'AddressRemoved': {
      const { addressId } = event.data;
      return {
        addresses: state.addresses.filter((a) => a.addressId !== addressId),
        defaultAddressId: state.defaultAddressId === addressId ? null : state.defaultAddressId,
      };
    }
    case 'DefaultAddressChanged':
      return { ...state, defaultAddressId: event.data.addressId };
  }
}

const makeDefault = (userId: string, addressId: string, now: Date): AddressBookEvent => ({
  type: 'DefaultAddressChanged',
  data: { userId, addressId, changedAt: now.toISOString() },
});

const saved = (state: AddressBookState, addressId: string) => {
  const found = state.addresses.find((a) => a.addressId === addressId);
  if (!found) throw new NotFoundError('Address not found');
  return found;
};

export function decideAddressBook(command: AddressBookCommand, state: AddressBookState): AddressBookEvent[] {
  switch (command.type) {
    case 'AddAddress': {
      const { userId, addressId, fields, now } = command.data;
      if (state.addresses.some((a) => a.addressId === addressId)) throw new ConflictError('Address already exists');
      if (state.addresses.length >= MAX_ADDRESSES)
        throw new ValidationError(`You can save at most ${MAX_ADDRESSES} addresses`);
      const added: AddressBookEvent = {
        type: 'AddressAdded',
        data: { userId, addressId, ...fields, addedAt: now.toISOString() },
      };
      // The first address is the default.
      const first = state.addresses.length === 0;
      return first || command.data.makeDefault ? [added, makeDefault(userId, addressId, now)] : [added];
    }
    case 'UpdateAddress': {
      const { userId, addressId, changes, now } = command.data;
      const current = saved(state, addressId);
      const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
      const fields: AddressFields = { ...current.fields, ...defined };
      const events: AddressBookEvent[] = [];
      if (!isDeepStrictEqual(fields, current.fields))
        events.push({ type: 'AddressUpdated', data: { userId, addressId, ...fields, updatedAt: now.toISOString() } });
      // Un-defaulting is not a thing: there is always a default; another address must be made default instead.
      if (command.data.makeDefault && state.defaultAddressId !== addressId)
        events.push(makeDefault(userId, addressId, now));
      return events;
    }
    case 'RemoveAddress': {
      const { userId, addressId, now } = command.data;
      saved(state, addressId);
      const removed: AddressBookEvent = {
        type: 'AddressRemoved',
        data: { userId, addressId, removedAt: now.toISOString() },
      };
      const next = state.addresses.find((a) => a.addressId !== addressId);
      // Removing the default hands the role to the oldest remaining address.
      if (state.defaultAddressId === addressId && next) return [removed, makeDefault(userId, next.addressId, now)];
      return [removed];
    }
    default: {
      const never: never = command;
      throw new Error(`Unknown command ${JSON.stringify(never)}`);
    }
  }
}
