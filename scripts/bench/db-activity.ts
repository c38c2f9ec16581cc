/**
 * What a benchmark phase asked of Postgres: transactions committed and rows written per table, from the
 * statistics views (pg_stat_database, pg_stat_user_tables) before and after the phase. Used by
 * `bench:flash-sale -- --db-activity` to compare the writes per order between two versions of the shop.
 */
import type pg from 'pg';

interface TableCounts {
  ins: number;
  upd: number;
  del: number;
  seq: number;
  idx: number;
}
export interface DbActivity {
  commits: number;
  rollbacks: number;
  /**
   * Transaction ids the server had assigned (pg_current_snapshot's xmax): one per transaction that wrote,
   * none for a read-only one. Server-wide: only the shop's own server (embedded) counts only the shop's.
   */
  xids: number;
  tables: Map<string, TableCounts>;
  /** Calls per statement text, when the server loads pg_stat_statements. */
  statements: Map<string, { calls: number; ms: number }>;
  /** Whether `statements` was read (the server loads pg_stat_statements), rather than left empty. */
  hasStatements: boolean;
  /** Queries the benchmark had sent through the probe (each its own transaction) before `commits` was read. */
  benchQueries: number;
}

/** Marks the benchmark's own SQL, so that the figures leave it out (pg_stat_statements keeps the comment). */
const BENCH_TAG = '/* bench */ ';
/** Transaction control: not one of the "SQL statements" a purchase costs (its commits are counted apart). */
const TRANSACTION_CONTROL = /^\s*(BEGIN|START TRANSACTION|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE)\b/i;

/** Statistics reach the views up to a second after a backend's transaction ends (PostgreSQL 15+). */
const STATS_FLUSH_MS = 1_500;

/** Reads the statistics views of the pool's database; whether pg_stat_statements answers is found once. */
export class DbActivityProbe {
  private hasStatements: Promise<boolean> | undefined;
  private queries = 0;

  constructor(private readonly pool: pg.Pool) {}

  /** The benchmark's own query: marked as the benchmark's and counted, so the figures leave it out. */
  query(sql: string, params?: unknown[]): Promise<pg.QueryResult> {
    this.queries += 1;
    return this.pool.query(BENCH_TAG + sql, params);
  }

  async read(): Promise<DbActivity> {
    const db = { query: (sql: string) => this.query(sql) };
    await new Promise((r) => setTimeout(r, STATS_FLUSH_MS));
    const benchQueries = this.queries;
    const d = await db.query(
      `SELECT xact_commit::bigint AS c, xact_rollback::bigint AS r,
              pg_snapshot_xmax(pg_current_snapshot())::text::bigint AS x
         FROM pg_stat_database WHERE datname = current_database()`,
    );
    const t = await db.query(
      `SELECT schemaname || '.' || relname AS name, n_tup_ins::bigint AS ins, n_tup_upd::bigint AS upd,
              n_tup_del::bigint AS del, coalesce(seq_scan, 0)::bigint AS seq, coalesce(idx_scan, 0)::bigint AS idx
         FROM pg_stat_user_tables`,
    );
    // Only a server started with shared_preload_libraries=pg_stat_statements answers the view.
    this.hasStatements ??= db
      .query(`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`)
      .then(() => db.query(`SELECT 1 FROM pg_stat_statements LIMIT 1`))
      .then(
        () => true,
        () => false,
      );
    const statements = new Map<string, { calls: number; ms: number }>();
    if (await this.hasStatements) {
      // This database's statements only: a server's view holds every database's.
      const s = await db.query(
        `SELECT query, sum(calls)::bigint AS calls, sum(total_exec_time) AS ms FROM pg_stat_statements
          WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) GROUP BY query`,
      );
      for (const row of s.rows) statements.set(row.query as string, { calls: Number(row.calls), ms: Number(row.ms) });
    }
    return {
      statements,
      hasStatements: await this.hasStatements,
      benchQueries,
      commits: Number(d.rows[0].c),
      rollbacks: Number(d.rows[0].r),
      xids: Number(d.rows[0].x),
      tables: new Map(
        t.rows.map((row) => [
          row.name as string,
          {
            ins: Number(row.ins),
            upd: Number(row.upd),
            del: Number(row.del),
            seq: Number(row.seq),
            idx: Number(row.idx),
          },
        ]),
      ),
    };
  }
}

/** Prints the phase's transactions and the tables written or scanned most, each also per `unit` (e.g. per order). */
export function printDbActivity(
  title: string,
  before: DbActivity,
  after: DbActivity,
  units: number,
  unit: string,
): void {
  const per = (n: number) => (units > 0 ? (n / units).toFixed(2) : '-');
  const commits = commitsBetween(before, after);
  console.log(`\nPostgres during ${title} (per ${unit}: ${units} ${unit}s):`);
  console.log(
    `transactions committed ${commits} (${per(commits)} per ${unit}, the benchmark's own left out), rolled back ${after.rollbacks - before.rollbacks}; transaction ids assigned (transactions that wrote, server-wide) ${writeTransactionsBetween(before, after)}`,
  );
  console.log('| table | inserted | updated | deleted | seq scans | index scans | rows written per ' + unit + ' |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  const rows = [...after.tables].map(([name, a]) => {
    const b = before.tables.get(name) ?? { ins: 0, upd: 0, del: 0, seq: 0, idx: 0 };
    return { name, ins: a.ins - b.ins, upd: a.upd - b.upd, del: a.del - b.del, seq: a.seq - b.seq, idx: a.idx - b.idx };
  });
  const busy = rows
    .filter((r) => r.ins + r.upd + r.del + r.seq + r.idx > 0)
    .sort((x, y) => y.ins + y.upd + y.del - (x.ins + x.upd + x.del) || y.seq + y.idx - (x.seq + x.idx));
  for (const r of busy) {
    console.log(`| ${r.name} | ${r.ins} | ${r.upd} | ${r.del} | ${r.seq} | ${r.idx} | ${per(r.ins + r.upd + r.del)} |`);
  }
  if (after.statements.size === 0) return;
  const calls = [...after.statements]
    .filter(([query]) => !query.startsWith(BENCH_TAG.trim()))
    .map(([query, a]) => {
      const b = before.statements.get(query) ?? { calls: 0, ms: 0 };
      return { query: query.replace(/\s+/g, ' ').slice(0, 140), calls: a.calls - b.calls, ms: a.ms - b.ms };
    });
  const total = calls.reduce((n, c) => n + c.calls, 0);
  console.log(
    `\nstatements (pg_stat_statements, the benchmark's own left out): ${total} calls with transaction control, ${per(total)} per ${unit}`,
  );
  // Postgres 18 computes a statement's id from its tables' names without their schema: one row stands for the
  // same statement on every schema's table of that name (consumer_streams, checkpoints, events, ...).
  console.log(`(one row per statement; from Postgres 18 a row's schema stands for every schema's table of that name)`);
  console.log('| calls | per ' + unit + ' | ms | statement |');
  console.log('|---:|---:|---:|---|');
  for (const c of calls
    .filter((c) => c.calls > 0)
    .sort((x, y) => y.calls - x.calls)
    .slice(0, 40)) {
    console.log(`| ${c.calls} | ${per(c.calls)} | ${c.ms.toFixed(0)} | ${c.query.replace(/\|/g, '\\|')} |`);
  }
}

/**
 * Transactions committed between two reads (pg_stat_database xact_commit: read-only ones too, e.g. each
 * listener's transaction reading a NOTIFY), the benchmark's own queries left out.
 */
export const commitsBetween = (before: DbActivity, after: DbActivity): number =>
  after.commits - before.commits - (after.benchQueries - before.benchQueries);

/**
 * SQL statements the shop ran between two reads (pg_stat_statements calls: top-level statements, each
 * execution of a prepared one counted), transaction control (BEGIN, COMMIT, ...) and the benchmark's own
 * queries left out; undefined when the server does not load pg_stat_statements.
 */
export function statementsBetween(before: DbActivity, after: DbActivity): number | undefined {
  if (!after.hasStatements || !before.hasStatements) return undefined;
  let n = 0;
  for (const [query, a] of after.statements) {
    if (query.startsWith(BENCH_TAG.trim()) || TRANSACTION_CONTROL.test(query)) continue;
    n += a.calls - (before.statements.get(query)?.calls ?? 0);
  }
  return n;
}

/** Transactions that wrote between two reads (transaction ids assigned; the benchmark's own never write). */
export const writeTransactionsBetween = (before: DbActivity, after: DbActivity): number => after.xids - before.xids;
