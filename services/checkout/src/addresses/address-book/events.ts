/** Events of the `addresses-<userId>` stream: one address book per user. */
export interface AddressFields {
  label: string;
  name: string;
  phone: string;
  email: string;
  addressLine1: string;
  addressLine2: string;
  city: string;
  state: string;
  zipCode: string;
}

export type AddressAdded = {
  type: 'AddressAdded';
  data: AddressFields & { userId: string; addressId: string; addedAt: string };
};
/** Carries all the fields after the change. */
export type AddressUpdated = {
  type: 'AddressUpdated';
  data: AddressFields & { userId: string; addressId: string; updatedAt: string };
};
export type AddressRemoved = { type: 'AddressRemoved'; data: { userId: string; addressId: string; removedAt: string } };
export type DefaultAddressChanged = {
  type: 'DefaultAddressChanged';
  data: { userId: string; addressId: string; changedAt: string };
};
export type AddressBookEvent = AddressAdded | AddressUpdated | AddressRemoved | DefaultAddressChanged;

export const DEFAULT_ADDRESS_LABEL = 'Home';
/** A bound on one user's book, so a script cannot grow a stream without end. */
export const MAX_ADDRESSES = 50;

export const addressBookStreamId = (userId: string) => `addresses-${userId}`;
