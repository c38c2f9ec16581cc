import { describe, expect, it } from 'vitest';
import { deciderSpec } from '@shop/test-support/given-when-then';
import { decideAddressBook, evolveAddressBook, initialAddressBookState, type AddressBookCommand } from './decider.ts';
import { MAX_ADDRESSES, type AddressBookEvent, type AddressFields } from './events.ts';

const now = new Date('2026-11-22T10:00:00Z');
const at = now.toISOString();
const home: AddressFields = {
  label: 'Home',
  name: 'Asha Rao',
  phone: '+919812345678',
  email: 'asha@example.in',
  addressLine1: '12 MG Road',
  addressLine2: '',
  city: 'Bengaluru',
  state: 'Karnataka',
  zipCode: '560001',
};
const office: AddressFields = { ...home, label: 'Office', addressLine1: '1 Residency Road' };

const given = deciderSpec({
  decide: decideAddressBook,
  evolve: evolveAddressBook,
  initialState: initialAddressBookState,
});
const add = (addressId: string, fields = home, makeDefault = false): AddressBookCommand => ({
  type: 'AddAddress',
  data: { userId: 'u1', addressId, fields, makeDefault, now },
});
const run = (events: AddressBookEvent[], command: AddressBookCommand) => [
  ...events,
  ...given(events).when(command).events(),
];
const added = (addressId: string, fields = home): AddressBookEvent => ({
  type: 'AddressAdded',
  data: { userId: 'u1', addressId, ...fields, addedAt: at },
});
const defaulted = (addressId: string): AddressBookEvent => ({
  type: 'DefaultAddressChanged',
  data: { userId: 'u1', addressId, changedAt: at },
});

describe('address book decider', () => {
  it('makes the first address the default, later ones only when asked', () => {
    given([])
      .when(add('a1'))
      .then([added('a1'), defaulted('a1')]);
    given([added('a1'), defaulted('a1')])
      .when(add('a2', office))
      .then([added('a2', office)]);
    given([added('a1'), defaulted('a1')])
      .when(add('a2', office, true))
      .then([added('a2', office), defaulted('a2')]);
  });

  it('records only real changes, and makes an address default on request', () => {
    const book = run(run([], add('a1')), add('a2', office));
    const update = (changes: Partial<AddressFields>, makeDefault = false): AddressBookCommand => ({
      type: 'UpdateAddress',
      data: { userId: 'u1', addressId: 'a2', changes, makeDefault, now },
    });
    given(book)
      .when(update({ label: 'Office', city: undefined }))
      .then([]);
    given(book)
      .when(update({ city: 'Mysuru' }, true))
      .then([
        { type: 'AddressUpdated', data: { userId: 'u1', addressId: 'a2', ...office, city: 'Mysuru', updatedAt: at } },
        defaulted('a2'),
      ]);
    given(book)
      .when({ ...update({}), data: { ...update({}).data, addressId: 'elsewhere' } } as AddressBookCommand)
      .then('Address not found');
  });

  it('hands the default to the oldest remaining address when the default is removed', () => {
    let book = run(run(run([], add('a1')), add('a2', office)), add('a3'));
    const remove = (addressId: string): AddressBookCommand => ({
      type: 'RemoveAddress',
      data: { userId: 'u1', addressId, now },
    });
    given(book)
      .when(remove('a2'))
      .then([{ type: 'AddressRemoved', data: { userId: 'u1', addressId: 'a2', removedAt: at } }]);
    book = run(book, remove('a2'));
    given(book)
      .when(remove('a1'))
      .then([{ type: 'AddressRemoved', data: { userId: 'u1', addressId: 'a1', removedAt: at } }, defaulted('a3')]);
    book = run(run(book, remove('a1')), remove('a3'));
    expect(given(book).state()).toEqual({ addresses: [], defaultAddressId: null });
    given(book).when(remove('a3')).then('Address not found');
  });

  it('bounds the book', () => {
    let book: AddressBookEvent[] = [];
    for (let i = 0; i < MAX_ADDRESSES; i++) book = run(book, add(`a${i}`));
    given(book).when(add('one-more')).then(`at most ${MAX_ADDRESSES} addresses`);
  });
});
