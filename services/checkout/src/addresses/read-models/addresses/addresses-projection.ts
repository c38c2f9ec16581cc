import { defineProjection } from '@shop/shared/bus/projection';
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

/** checkout.addresses: every user's saved addresses, for the address book and the checkout picker. */
export const addressesProjection = defineProjection<AddressBookEvent>({
  name: ADDRESSES_PROJECTION,
  schema: 'checkout',
  sources: ['checkout'],
  on: {
    async AddressAdded({ userId, addressId, addedAt, ...fields }, tx, event) {
      const params = FIELD_COLUMNS.map((_, i) => `$${i + 5}`).join(', ');
      await tx.query(
        `INSERT INTO checkout.addresses (id, user_id, position, created_at, updated_at, ${FIELD_COLUMNS.join(', ')})
         VALUES ($1, $2, $3, $4, $4, ${params}) ON CONFLICT (id) DO NOTHING`,
        [addressId, userId, event.streamVersion, addedAt, ...fieldValues(fields)],
      );
    },
    async AddressUpdated({ userId, addressId, updatedAt, ...fields }, tx) {
      const sets = FIELD_COLUMNS.map((c, i) => `${c} = $${i + 4}`).join(', ');
      await tx.query(`UPDATE checkout.addresses SET updated_at = $3, ${sets} WHERE id = $1 AND user_id = $2`, [
        addressId,
        userId,
        updatedAt,
        ...fieldValues(fields),
      ]);
    },
    async AddressRemoved(d, tx) {
      await tx.query(`DELETE FROM checkout.addresses WHERE id = $1 AND user_id = $2`, [d.addressId, d.userId]);
    },
    async DefaultAddressChanged(d, tx) {
      await tx.query(`UPDATE checkout.addresses SET is_default = (id = $2) WHERE user_id = $1`, [
        d.userId,
        d.addressId,
      ]);
    },
  },
});
