import type pg from 'pg';
import type { AddressFields } from '../../address-book/events.ts';

/** A saved address as the API answers it: its fields as the address book records them, its id and default. */
export interface AddressView extends AddressFields {
  id: string;
  isDefault: boolean;
}

interface Row {
  id: string;
  label: string;
  name: string;
  phone: string;
  email: string;
  address_line1: string;
  address_line2: string;
  city: string;
  state: string;
  zip_code: string;
  is_default: boolean;
}

const SELECT = `SELECT id, label, name, phone, email, address_line1, address_line2, city, state, zip_code, is_default
  FROM checkout.addresses`;

const toView = (r: Row): AddressView => ({
  id: r.id,
  label: r.label,
  name: r.name,
  phone: r.phone,
  email: r.email,
  addressLine1: r.address_line1,
  addressLine2: r.address_line2,
  city: r.city,
  state: r.state,
  zipCode: r.zip_code,
  isDefault: r.is_default,
});

/** The default first, then in the order they were added. */
export async function listAddresses(db: pg.Pool, userId: string): Promise<AddressView[]> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE user_id = $1 ORDER BY is_default DESC, position`, [userId]);
  return rows.map(toView);
}

/** One of the user's addresses (another user's id finds nothing). */
export async function findAddress(db: pg.Pool, userId: string, id: string): Promise<AddressView | null> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE user_id = $1 AND id = $2`, [userId, id]);
  return rows[0] ? toView(rows[0]) : null;
}
