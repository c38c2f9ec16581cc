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
  session_version: number;
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
const SELECT = `SELECT id, name, email, phone, to_char(dob, 'YYYY-MM-DD') AS dob, gender, is_admin, password_hash, session_version FROM accounts.users`;

/** What only the server sees of a user: never part of an answer. */
export interface UserSecrets {
  passwordHash: string;
  /** The session generation a token must carry to be accepted (moved on by each password reset). */
  sessionVersion: number;
}

export async function findUserByEmail(
  db: pg.Pool,
  email: string,
): Promise<{ user: UserView; secrets: UserSecrets } | null> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE lower(email) = lower($1)`, [email.trim()]);
  const r = rows[0];
  return r ? { user: toView(r), secrets: secretsOf(r) } : null;
}

export async function findUserById(db: pg.Pool, id: string): Promise<UserView | null> {
  return (await findUserWithSecrets(db, id))?.user ?? null;
}

export async function findUserWithSecrets(
  db: pg.Pool,
  id: string,
): Promise<{ user: UserView; secrets: UserSecrets } | null> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE id = $1`, [id]);
  return rows[0] ? { user: toView(rows[0]), secrets: secretsOf(rows[0]) } : null;
}

const secretsOf = (r: Row): UserSecrets => ({
  passwordHash: r.password_hash,
  sessionVersion: Number(r.session_version),
});

export async function listUsers(db: pg.Pool): Promise<UserView[]> {
  const { rows } = await db.query<Row>(`${SELECT} ORDER BY registered_at, id`);
  return rows.map(toView);
}
