import { defineReadModel, readModelConsumer } from '@shop/shared/bus/projection-read-model';
import { table } from '@shop/shared/bus/projection-rows';
import type { AddressBookEvent, AddressFields } from '../../address-book/events.ts';

export const ADDRESSES_PROJECTION = 'checkout.addresses';

const fieldValues = (f: AddressFields) => [
  f.label,
  f.name,
  f.phone,
  f.email,
  f.addressLine1,
  f.addressLine2,
  f.city,
  f.state,
  f.zipCode,
];
const FIELD_COLUMNS = [
  'label',
  'name',
  'phone',
  'email',
  'address_line1',
  'address_line2',
  'city',
  'state',
  'zip_code',
];

const tables = {
  addresses: table('checkout.addresses', {
    key: ['id'],
    columns: ['id', 'user_id', 'position', 'created_at', 'updated_at', ...FIELD_COLUMNS, 'is_default'],
    lookup: { column: 'user_id' },
  }),
};

/** The address's fields as columns. */
const fieldColumns = (fields: AddressFields) => {
  const values = fieldValues(fields);
  return Object.fromEntries(FIELD_COLUMNS.map((c, i) => [c, values[i]]));
};

/** checkout.addresses: every user's saved addresses, for the address book and the checkout picker. */
export const addressesReadModel = defineReadModel<AddressBookEvent, typeof tables>({
  name: ADDRESSES_PROJECTION,
  schema: 'checkout',
  sources: ['checkout'],
  tables,
  evolve: {
    AddressAdded({ userId, addressId, addedAt, ...fields }, { addresses }, event) {
      addresses.insert({
        id: addressId,
        user_id: userId,
        position: event.streamVersion,
        created_at: addedAt,
        updated_at: addedAt,
        ...fieldColumns(fields),
        is_default: false,
      });
    },
    AddressUpdated({ userId, addressId, updatedAt, ...fields }, { addresses }) {
      if (addresses.get(addressId)?.user_id === userId)
        addresses.update(addressId, { updated_at: updatedAt, ...fieldColumns(fields) });
    },
    AddressRemoved(d, { addresses }) {
      if (addresses.get(d.addressId)?.user_id === d.userId) addresses.delete(d.addressId);
    },
    DefaultAddressChanged(d, { addresses }) {
      for (const row of addresses.rowsWhere(d.userId)) addresses.update(row.id, { is_default: row.id === d.addressId });
    },
  },
});

export const addressesProjection = readModelConsumer(addressesReadModel);
