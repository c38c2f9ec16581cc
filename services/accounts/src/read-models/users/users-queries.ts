import type pg from 'pg';

export interface UserView {
  id: string;
  name: string;
  email: string;
  phone: string;
  dob: string | null;
  gender: string | null;
  isAdmin: boolean;
}

interface Row {
  id: string;
  name: string;
  email: string;
  phone: string;
  dob: Date | string | null;
  gender: string | null;
  is_admin: boolean;
  password_hash: string;
}

const toView = (r: Row): UserView => ({
  id: r.id,
  name: r.name,
  email: r.email,
  phone: r.phone,
  dob: r.dob === null ? null : typeof r.dob === 'string' ? r.dob : r.dob.toISOString().slice(0, 10),
  gender: r.gender,
  isAdmin: r.is_admin,
});

// dates come back as strings (no timezone shifts): DATE is a calendar day here
const SELECT = `SELECT id, name, email, phone, to_char(dob, 'YYYY-MM-DD') AS dob, gender, is_admin, password_hash FROM accounts.users`;

export async function findUserByEmail(
  db: pg.Pool,
  email: string,
): Promise<(UserView & { passwordHash: string }) | null> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE lower(email) = lower($1)`, [email.trim()]);
  const r = rows[0];
  return r ? { ...toView(r), passwordHash: r.password_hash } : null;
}

export async function findUserById(db: pg.Pool, id: string): Promise<UserView | null> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE id = $1`, [id]);
  return rows[0] ? toView(rows[0]) : null;
}

export async function listUsers(db: pg.Pool): Promise<UserView[]> {
  const { rows } = await db.query<Row>(`${SELECT} ORDER BY registered_at, id`);
  return rows.map(toView);
}
