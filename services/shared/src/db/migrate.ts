/**
 * The schema's migrations, run by knex: migrations/NNN_name.sql (the SQL stays SQL), each with an optional
 * NNN_name.down.sql beside it for `rollback`. knex records them in public.knex_migrations (by file name, in
 * batches) and serialises migrators with its lock row in public.knex_migrations_lock.
 *
 * A batch runs in one transaction, and the lock row is taken inside it: a second process migrating at the
 * same time waits on that row and then finds the work done (the shop's processes all migrate at start-up),
 * and a process killed mid-way leaves neither half a batch nor a stuck lock.
 *
 * A database migrated by the former hand-written runner (public.schema_migrations) is adopted: a migration
 * recorded there is recorded by knex without running again, and the old table goes once empty.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import createKnex, { type Knex } from 'knex';
import type pg from 'pg';

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../migrations');

const MIGRATIONS_TABLE = 'knex_migrations';
const LOCK_TABLE = 'knex_migrations_lock';
const FORMER_TABLE = 'public.schema_migrations';
const UP_FILE = /^\d+_.+\.sql$/;
const DOWN_SUFFIX = '.down.sql';

/** A database to migrate: the pool's connection settings (knex opens its own, short-lived) or a URL. */
export type MigrationTarget = pg.Pool | string;

export interface MigrationRun {
  /** knex's batch number for this run (the previous one when nothing was pending). */
  batch: number;
  /** Migrations whose SQL ran. */
  applied: string[];
  /** Migrations the former runner had applied, recorded without running. */
  adopted: string[];
}

export interface Rollback {
  /** The batch undone (0: nothing was applied). */
  batch: number;
  /** Its migrations, newest first. */
  rolledBack: string[];
}

/** What the SQL migration source did in one knex run. */
interface SourceLog {
  ran: string[];
  adopted: string[];
}

export interface MigrationState {
  name: string;
  /** Set once applied (or adopted). */
  batch?: number;
  appliedAt?: Date;
  /** Has a NNN_name.down.sql, so `rollback` can undo it. */
  hasDown: boolean;
  /** Recorded by the former runner only: adopted by the next `latest` without running. */
  formerRunner?: boolean;
}

export class MigrationError extends Error {
  override name = 'MigrationError';
}

interface SqlMigration {
  name: string;
  upFile: string;
  downFile?: string;
}

const downName = (name: string) => name.replace(/\.sql$/, DOWN_SUFFIX);

async function listMigrations(dir: string): Promise<SqlMigration[]> {
  const files = new Set(await fs.readdir(dir));
  return [...files]
    .filter((f) => UP_FILE.test(f) && !f.endsWith(DOWN_SUFFIX))
    .sort()
    .map((name) => ({
      name,
      upFile: path.join(dir, name),
      ...(files.has(downName(name)) ? { downFile: path.join(dir, downName(name)) } : {}),
    }));
}

/** The SQL goes to the transaction's own pg connection as one simple query: knex's `?` bindings never touch it. */
async function runSql(trx: Knex, sql: string): Promise<void> {
  const connection = (await trx.client.acquireConnection()) as pg.ClientBase;
  await connection.query(sql);
}

/** A knex migration source over the SQL files; records in `log` what it ran or adopted. */
function sqlMigrationSource(dir: string, log: SourceLog): Knex.MigrationSource<SqlMigration> {
  let formerTable: boolean | undefined;
  return {
    getMigrations: () => listMigrations(dir),
    getMigrationName: (m) => m.name,
    getMigration: async (m) => ({
      async up(trx: Knex) {
        formerTable ??= await hasTable(trx, FORMER_TABLE);
        // Moved, not copied: after a rollback of it the next `latest` must run it again.
        if (formerTable) {
          const moved = await trx.raw(`DELETE FROM ${FORMER_TABLE} WHERE name = ? RETURNING name`, [m.name]);
          if ((moved as pg.QueryResult).rowCount) {
            log.adopted.push(m.name);
            return;
          }
        }
        try {
          await runSql(trx, await fs.readFile(m.upFile, 'utf8'));
        } catch (err) {
          throw new MigrationError(`Migration ${m.name} failed: ${(err as Error).message}`, { cause: err });
        }
        log.ran.push(m.name);
      },
      async down(trx: Knex) {
        if (!m.downFile) throw new MigrationError(`Cannot roll back ${m.name}: there is no ${downName(m.name)}`);
        try {
          await runSql(trx, await fs.readFile(m.downFile, 'utf8'));
        } catch (err) {
          throw new MigrationError(`Rollback of ${m.name} failed: ${(err as Error).message}`, { cause: err });
        }
        log.ran.push(m.name);
      },
    }),
  };
}

async function hasTable(db: Knex, qualified: string): Promise<boolean> {
  const r = await db.raw('SELECT to_regclass(?) IS NOT NULL AS present', [qualified]);
  return (r as pg.QueryResult<{ present: boolean }>).rows[0]!.present;
}

function connectionOf(target: MigrationTarget): string | Knex.PgConnectionConfig {
  if (typeof target === 'string') return target;
  const { connectionString, host, port, user, password, database, ssl } = target.options;
  const settings = { connectionString, host, port, user, password, database, ssl };
  return Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined)) as Knex.PgConnectionConfig;
}

async function withKnex<T>(target: MigrationTarget, fn: (db: Knex) => Promise<T>): Promise<T> {
  const db = createKnex({
    client: 'pg',
    connection: connectionOf(target),
    // one for the batch's transaction, one spare for knex's reads before it
    pool: { min: 0, max: 2 },
    // knex's own lines repeat the error thrown to the caller ("migration failed with error: ...")
    log: { warn: () => undefined, error: () => undefined, debug: () => undefined },
  });
  try {
    return await fn(db);
  } finally {
    await db.destroy();
  }
}

// unique_violation, duplicate_table, duplicate_object (the table's row type)
const DUPLICATE = new Set(['23505', '42P07', '42710']);

/**
 * knex's own tables, made here idempotently: knex would create them with a plain CREATE TABLE and insert
 * the lock row if none, so processes starting together could fail, or insert two lock rows (and then never
 * get the lock). Two concurrent CREATE ... IF NOT EXISTS can still collide on the catalog: retried.
 */
async function ensureKnexTables(db: Knex): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await db.raw(
        `CREATE TABLE IF NOT EXISTS public.${MIGRATIONS_TABLE} (id serial PRIMARY KEY, name varchar(255), batch integer, migration_time timestamptz)`,
      );
      await db.raw(`CREATE TABLE IF NOT EXISTS public.${LOCK_TABLE} (index serial PRIMARY KEY, is_locked integer)`);
      await db.raw(`INSERT INTO public.${LOCK_TABLE} (index, is_locked) VALUES (1, 0) ON CONFLICT DO NOTHING`);
      return;
    } catch (err) {
      if (attempt >= 5 || !DUPLICATE.has((err as { code?: string }).code ?? '')) throw err;
    }
  }
}

/** The former runner's table, once every migration it recorded has been adopted. */
async function dropEmptyFormerTable(trx: Knex): Promise<void> {
  if (!(await hasTable(trx, FORMER_TABLE))) return;
  const left = await trx.raw(`SELECT count(*)::int AS n FROM ${FORMER_TABLE}`);
  if ((left as pg.QueryResult<{ n: number }>).rows[0]!.n === 0) await trx.raw(`DROP TABLE ${FORMER_TABLE}`);
}

/** Applies every pending migration (adopting the former runner's), in one batch; safe with many processes. */
export async function migrateLatest(target: MigrationTarget, dir = MIGRATIONS_DIR): Promise<MigrationRun> {
  return withKnex(target, async (db) => {
    await ensureKnexTables(db);
    const log: SourceLog = { ran: [], adopted: [] };
    const [batch] = (await db.migrate.latest({
      tableName: MIGRATIONS_TABLE,
      migrationSource: sqlMigrationSource(dir, log),
      afterAll: (trx) => dropEmptyFormerTable(trx as Knex),
    })) as [number, string[]];
    return { batch, applied: log.ran, adopted: log.adopted };
  });
}

/** Applies every pending migration at start-up (the services, the sandbox, tests, scripts). */
export const migrate = migrateLatest;

/**
 * Undoes the last batch with the .down.sql files, newest first, all in one transaction. Refuses, changing
 * nothing, when one of the batch's migrations has no down file.
 */
export async function migrateRollback(target: MigrationTarget, dir = MIGRATIONS_DIR): Promise<Rollback> {
  return withKnex(target, async (db) => {
    await ensureKnexTables(db);
    const lastBatch: { name: string; batch: number }[] = await db(MIGRATIONS_TABLE)
      .select('name', 'batch')
      .whereRaw(`batch = (SELECT max(batch) FROM public.${MIGRATIONS_TABLE})`);
    if (!lastBatch.length) return { batch: 0, rolledBack: [] };
    const byName = new Map((await listMigrations(dir)).map((m) => [m.name, m]));
    const without = lastBatch.map((r) => r.name).filter((name) => !byName.get(name)?.downFile);
    if (without.length)
      throw new MigrationError(
        `Cannot roll back batch ${lastBatch[0]!.batch}: no down file for ${without.join(', ')} ` +
          `(${without.length > 1 ? 'each needs' : 'it needs'} a NNN_name.down.sql beside it); nothing was rolled back`,
      );
    const log: SourceLog = { ran: [], adopted: [] };
    // In a transaction of its own: the lock row and every down commit together, or not at all.
    await db.transaction((trx) =>
      trx.migrate.rollback({ tableName: MIGRATIONS_TABLE, migrationSource: sqlMigrationSource(dir, log) }),
    );
    return { batch: lastBatch[0]!.batch, rolledBack: log.ran };
  });
}

/** Every migration file and recorded migration, in order, with its batch and time once applied. */
export async function migrationStatus(target: MigrationTarget, dir = MIGRATIONS_DIR): Promise<MigrationState[]> {
  return withKnex(target, async (db) => {
    const recorded = new Map<string, { batch: number; migration_time: Date }>();
    if (await hasTable(db, `public.${MIGRATIONS_TABLE}`))
      for (const r of await db(MIGRATIONS_TABLE).select('name', 'batch', 'migration_time').orderBy('id'))
        recorded.set(r.name, r);
    const former = new Set<string>();
    if (await hasTable(db, FORMER_TABLE))
      for (const r of (await db.raw(`SELECT name FROM ${FORMER_TABLE}`)).rows as { name: string }[]) former.add(r.name);
    const files = await listMigrations(dir);
    const names = [...new Set([...files.map((f) => f.name), ...recorded.keys()])].sort();
    return names.map((name) => {
      const r = recorded.get(name);
      return {
        name,
        ...(r ? { batch: r.batch, appliedAt: r.migration_time } : {}),
        hasDown: Boolean(files.find((f) => f.name === name)?.downFile),
        ...(!r && former.has(name) ? { formerRunner: true } : {}),
      };
    });
  });
}
