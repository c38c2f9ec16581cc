import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import { createPool } from './pool.ts';
import { MIGRATIONS_DIR, migrate, migrateLatest, migrateRollback, migrationStatus } from './migrate.ts';

const realFiles = fs
  .readdirSync(MIGRATIONS_DIR)
  .filter((f) => /^\d+_.+\.sql$/.test(f) && !f.endsWith('.down.sql'))
  .sort();

const dbs: TestDatabase[] = [];
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dbs.map((db) => db.drop()));
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

async function freshDatabase(): Promise<TestDatabase> {
  const db = await createTestDatabase({ migrate: false });
  dbs.push(db);
  return db;
}

/** A migrations folder of its own; `runs` counts every execution of an up or down file. */
function migrationsDir(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'migrations-'));
  dirs.push(dir);
  for (const [name, sql] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), sql);
  return dir;
}
const counted = (table: string, name: string, create: string) =>
  `${create}; CREATE TABLE IF NOT EXISTS runs (name text); INSERT INTO runs VALUES ('${name}'); -- ? is not a binding\n` +
  `SELECT '${table}'`;

async function recorded(db: TestDatabase): Promise<{ name: string; batch: number }[]> {
  return (await db.pool.query('SELECT name, batch FROM public.knex_migrations ORDER BY id')).rows;
}
const tableExists = async (db: TestDatabase, name: string) =>
  (await db.pool.query('SELECT to_regclass($1) IS NOT NULL AS present', [name])).rows[0].present as boolean;

/** What the former hand-written runner left: the files applied in order, each recorded in schema_migrations. */
async function migrateWithFormerRunner(db: TestDatabase, dir: string, files: string[]): Promise<void> {
  await db.pool.query(
    'CREATE TABLE public.schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  for (const file of files) {
    await db.pool.query(fs.readFileSync(path.join(dir, file), 'utf8'));
    await db.pool.query('INSERT INTO public.schema_migrations (name) VALUES ($1)', [file]);
  }
}

describe('the shop migrations', () => {
  it('applies every file once, in order, in one batch, and nothing on the next start', async () => {
    const db = await freshDatabase();
    const first = await migrate(db.pool);
    expect(first).toEqual({ batch: 1, applied: realFiles, adopted: [] });
    expect(await recorded(db)).toEqual(realFiles.map((name) => ({ name, batch: 1 })));
    expect(await migrate(db.url)).toEqual({ batch: 1, applied: [], adopted: [] });
    expect(await tableExists(db, 'public.schema_migrations')).toBe(false);
  });

  it('applies each migration exactly once when many processes migrate at once', async () => {
    const db = await freshDatabase();
    const pools = Array.from({ length: 6 }, () => createPool(db.url, 2));
    try {
      const runs = await Promise.all(pools.map((pool) => migrate(pool)));
      expect(runs.flatMap((r) => r.applied).sort()).toEqual(realFiles);
      expect(runs.filter((r) => r.applied.length > 0)).toHaveLength(1);
      expect(await recorded(db)).toEqual(realFiles.map((name) => ({ name, batch: 1 })));
      const lock = await db.pool.query('SELECT is_locked FROM public.knex_migrations_lock');
      expect(lock.rows).toEqual([{ is_locked: 0 }]);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });

  it('rolls back the recent migrations with their down files and applies them again', async () => {
    const db = await freshDatabase();
    const copy = (files: string[]) =>
      Object.fromEntries(files.map((f) => [f, fs.readFileSync(path.join(MIGRATIONS_DIR, f), 'utf8')]));
    const recent = [
      '027_checkout_pending_settlements.sql',
      '028_checkout_orphan_checkouts.sql',
      '029_checkout_refunds.sql',
    ];
    const dir = migrationsDir(copy(realFiles.filter((f) => f < '027')));
    await migrateLatest(db.pool, dir);
    for (const [name, sql] of Object.entries(copy([...recent, ...recent.map((f) => f.replace(/\.sql$/, '.down.sql'))])))
      fs.writeFileSync(path.join(dir, name), sql);
    expect(await migrateLatest(db.pool, dir)).toEqual({ batch: 2, applied: recent, adopted: [] });
    expect(await tableExists(db, 'checkout.refunds')).toBe(true);

    expect(await migrateRollback(db.pool, dir)).toEqual({ batch: 2, rolledBack: [...recent].reverse() });
    for (const t of ['checkout.refunds', 'checkout.pending_refunds', 'razorpay_sandbox.refunds'])
      expect(await tableExists(db, t)).toBe(false);
    expect(await tableExists(db, 'checkout.pending_settlements')).toBe(false);
    expect(await tableExists(db, 'checkout.live_checkouts_expiry')).toBe(false);
    const columns = await db.pool.query(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = 'checkout' AND table_name = 'webhook_events' AND column_name IN ('processed_at', 'claimed_until', 'outcome')`,
    );
    expect(columns.rows).toEqual([]);
    expect((await recorded(db)).map((r) => r.name)).toEqual(realFiles.filter((f) => f < '027'));

    expect(await migrateLatest(db.pool, dir)).toEqual({ batch: 2, applied: recent, adopted: [] });
    expect(await tableExists(db, 'checkout.refunds')).toBe(true);
  });

  it('adopts a shop database the former runner migrated: every file recorded, none run again', async () => {
    const db = await freshDatabase();
    await migrateWithFormerRunner(db, MIGRATIONS_DIR, realFiles);
    await db.pool.query(
      `INSERT INTO catalog.products (id, name, price_paise, created_at, updated_at) VALUES ('kept', 'Kurta', 100, now(), now())`,
    );
    expect(await migrate(db.pool)).toEqual({ batch: 1, applied: [], adopted: realFiles });
    expect(await recorded(db)).toEqual(realFiles.map((name) => ({ name, batch: 1 })));
    expect((await db.pool.query('SELECT id FROM catalog.products')).rows).toEqual([{ id: 'kept' }]);
    expect(await tableExists(db, 'public.schema_migrations')).toBe(false);
  });

  it('refuses to roll back a batch holding a migration without a down file, changing nothing', async () => {
    const db = await freshDatabase();
    await migrate(db.pool);
    await expect(migrateRollback(db.pool)).rejects.toThrow(
      /^Cannot roll back batch 1: no down file for 001_event_store\.sql, 002_event_notify\.sql, .*026_checkout_take_live_checkout\.sql.* \(each needs a NNN_name\.down\.sql beside it\); nothing was rolled back$/,
    );
    expect(await recorded(db)).toHaveLength(realFiles.length);
    expect(await tableExists(db, 'checkout.refunds')).toBe(true);
  });
});

describe('SQL migration files', () => {
  let db: TestDatabase;
  beforeEach(async () => {
    db = await freshDatabase();
  });
  afterEach(async () => {
    await db.pool.query('DROP TABLE IF EXISTS runs');
  });
  const runs = async () => (await db.pool.query('SELECT name FROM runs')).rows.map((r) => r.name);

  it('adopts a database the former runner migrated without running anything again', async () => {
    const dir = migrationsDir({
      '001_a.sql': counted('a', '001', 'CREATE TABLE a (id int)'),
      '002_b.sql': counted('b', '002', 'CREATE TABLE b (id int)'),
      '003_c.sql': counted('c', '003', 'CREATE TABLE c (id int)'),
    });
    await migrateWithFormerRunner(db, dir, ['001_a.sql', '002_b.sql']);
    await db.pool.query('INSERT INTO a VALUES (7)');
    expect(await migrationStatus(db.pool, dir)).toEqual([
      { name: '001_a.sql', hasDown: false, formerRunner: true },
      { name: '002_b.sql', hasDown: false, formerRunner: true },
      { name: '003_c.sql', hasDown: false },
    ]);

    expect(await migrateLatest(db.pool, dir)).toEqual({
      batch: 1,
      applied: ['003_c.sql'],
      adopted: ['001_a.sql', '002_b.sql'],
    });
    expect(await runs()).toEqual(['001', '002', '003']);
    expect((await db.pool.query('SELECT id FROM a')).rows).toEqual([{ id: 7 }]);
    expect(await tableExists(db, 'public.schema_migrations')).toBe(false);
    const status = await migrationStatus(db.pool, dir);
    expect(status.map((s) => [s.name, s.batch, s.formerRunner])).toEqual([
      ['001_a.sql', 1, undefined],
      ['002_b.sql', 1, undefined],
      ['003_c.sql', 1, undefined],
    ]);
    expect(await migrateLatest(db.pool, dir)).toEqual({ batch: 1, applied: [], adopted: [] });
  });

  it('runs an adopted migration again after rolling it back', async () => {
    const dir = migrationsDir({
      '001_a.sql': counted('a', '001', 'CREATE TABLE a (id int)'),
      '001_a.down.sql': "DROP TABLE a; INSERT INTO runs VALUES ('001 down')",
    });
    await migrateWithFormerRunner(db, dir, ['001_a.sql']);
    expect(await migrateLatest(db.pool, dir)).toEqual({ batch: 1, applied: [], adopted: ['001_a.sql'] });
    expect(await migrateRollback(db.pool, dir)).toEqual({ batch: 1, rolledBack: ['001_a.sql'] });
    expect(await migrateLatest(db.pool, dir)).toEqual({ batch: 1, applied: ['001_a.sql'], adopted: [] });
    expect(await runs()).toEqual(['001', '001 down', '001']);
  });

  it('rolls back only the last batch; a failing migration leaves its whole batch unapplied', async () => {
    const files: Record<string, string> = {
      '001_a.sql': counted('a', '001', 'CREATE TABLE a (id int)'),
      '002_b.sql': counted('b', '002', 'CREATE TABLE b (id int)'),
      '002_b.down.sql': "DROP TABLE b; INSERT INTO runs VALUES ('002 down')",
    };
    const dir = migrationsDir(files);
    await migrateLatest(db.pool, dir);
    fs.writeFileSync(path.join(dir, '003_c.sql'), counted('c', '003', 'CREATE TABLE c (id int)'));
    fs.writeFileSync(path.join(dir, '004_d.sql'), 'CREATE TABLE d (id int); SELECT no_such_column FROM d');
    await expect(migrateLatest(db.pool, dir)).rejects.toThrow(/Migration 004_d\.sql failed: column "no_such_column"/);
    expect(await tableExists(db, 'c')).toBe(false);
    expect((await recorded(db)).map((r) => r.name)).toEqual(['001_a.sql', '002_b.sql']);
    expect((await db.pool.query('SELECT is_locked FROM public.knex_migrations_lock')).rows).toEqual([{ is_locked: 0 }]);

    fs.writeFileSync(path.join(dir, '004_d.sql'), 'CREATE TABLE d (id int)');
    fs.writeFileSync(path.join(dir, '004_d.down.sql'), 'DROP TABLE d');
    fs.writeFileSync(path.join(dir, '003_c.down.sql'), "DROP TABLE c; INSERT INTO runs VALUES ('003 down')");
    expect(await migrateLatest(db.pool, dir)).toEqual({ batch: 2, applied: ['003_c.sql', '004_d.sql'], adopted: [] });
    expect(await migrateRollback(db.pool, dir)).toEqual({ batch: 2, rolledBack: ['004_d.sql', '003_c.sql'] });
    await expect(migrateRollback(db.pool, dir)).rejects.toThrow(
      'Cannot roll back batch 1: no down file for 001_a.sql (it needs a NNN_name.down.sql beside it); nothing was rolled back',
    );
    expect(await runs()).toEqual(['001', '002', '003', '003 down']);
    expect(await tableExists(db, 'b')).toBe(true);
  });
});
