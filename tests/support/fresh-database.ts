import pg from 'pg';

/** A database of its own on a Postgres server: its URL, and drop() (forced: open connections are cut). */
export interface FreshDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * Creates the database `name` on the Postgres server at `serverUrl` (a URL whose user may create databases);
 * vitest-free, so scripts use it as the test tiers do (createTestDatabase adds a pool and migrations).
 */
export async function createFreshDatabase(serverUrl: string, name: string): Promise<FreshDatabase> {
  const quoted = `"${name.replace(/"/g, '""')}"`;
  await onServer(serverUrl, `CREATE DATABASE ${quoted}`);
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return { url: u.toString(), drop: () => onServer(serverUrl, `DROP DATABASE IF EXISTS ${quoted} WITH (FORCE)`) };
}

async function onServer(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
