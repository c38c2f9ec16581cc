import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import { runScript } from './run-script.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase({ migrate: false });
});
afterAll(() => db?.drop());

const migrateCommand = (...args: string[]) => runScript('migrate', args, { DATABASE_URL: db.url });

describe('npm run migrate', () => {
  it('shows the pending migrations, applies them in one batch, then has nothing to do', async () => {
    const before = await migrateCommand('status');
    expect(before.code).toBe(0);
    expect(before.stdout).toMatch(/^Database: DATABASE_URL\n {2}001_event_store\.sql +pending\n/);
    expect(before.stdout).toMatch(/ {2}029_checkout_refunds\.sql +pending {2}\(has down\)\n/);
    expect(before.stdout).toMatch(/\n0 applied, \d+ pending\n$/);

    const latest = await migrateCommand('latest');
    expect(latest.code).toBe(0);
    expect(latest.stdout).toMatch(
      /^Database: DATABASE_URL\nBatch 1: applied 001_event_store\.sql, 002_event_notify\.sql, /,
    );
    const tables = await db.pool.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 'events'`);
    expect(tables.rowCount).toBe(4);

    const again = await migrateCommand('latest');
    expect(again.stdout).toBe('Database: DATABASE_URL\nNothing to apply: up to date (batch 1)\n');
    const after = await migrateCommand('status');
    expect(after.stdout).toMatch(/ {2}001_event_store\.sql +batch 1 {2}\d{4}-\d\d-\d\dT[\d:.]+Z\n/);
    expect(after.stdout).toMatch(/\n(\d+) applied, 0 pending\n$/);
  });

  it('refuses a rollback it cannot do, exit 1, and a command it does not know, exit 2', async () => {
    const rollback = await migrateCommand('rollback');
    expect(rollback.code).toBe(1);
    expect(rollback.stderr).toMatch(/^Cannot roll back batch 1: no down file for 001_event_store\.sql, /);
    expect((await db.pool.query('SELECT count(*)::int AS n FROM public.knex_migrations')).rows[0].n).toBeGreaterThan(
      20,
    );

    const unknown = await migrateCommand('up');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('usage: npm run migrate -- latest | rollback | status\n');
  });
});
