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
  tables: Map<string, TableCounts>;
  /** Calls per statement text, when the server loads pg_stat_statements. */
  statements: Map<string, { calls: number; ms: number }>;
}

/** Statistics reach the views up to a second after a backend's transaction ends (PostgreSQL 15+). */
const STATS_FLUSH_MS = 1_500;

/** Reads the statistics views of the pool's database; whether pg_stat_statements answers is found once. */
export class DbActivityProbe {
  private hasStatements: Promise<boolean> | undefined;

  constructor(private readonly db: pg.Pool) {}

  async read(): Promise<DbActivity> {
    const db = this.db;
    await new Promise((r) => setTimeout(r, STATS_FLUSH_MS));
    const d = await db.query(
      `SELECT xact_commit::bigint AS c, xact_rollback::bigint AS r FROM pg_stat_database WHERE datname = current_database()`,
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
      commits: Number(d.rows[0].c),
      rollbacks: Number(d.rows[0].r),
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
  const commits = after.commits - before.commits;
  console.log(`\nPostgres during ${title} (per ${unit}: ${units} ${unit}s):`);
  console.log(
    `transactions committed ${commits} (${per(commits)} per ${unit}), rolled back ${after.rollbacks - before.rollbacks}`,
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
  const calls = [...after.statements].map(([query, a]) => {
    const b = before.statements.get(query) ?? { calls: 0, ms: 0 };
    return { query: query.replace(/\s+/g, ' ').slice(0, 140), calls: a.calls - b.calls, ms: a.ms - b.ms };
  });
  const total = calls.reduce((n, c) => n + c.calls, 0);
  console.log(`\nstatements (pg_stat_statements): ${total} calls, ${per(total)} per ${unit}`);
  console.log('| calls | per ' + unit + ' | ms | statement |');
  console.log('|---:|---:|---:|---|');
  for (const c of calls
    .filter((c) => c.calls > 0)
    .sort((x, y) => y.calls - x.calls)
    .slice(0, 40)) {
    console.log(`| ${c.calls} | ${per(c.calls)} | ${c.ms.toFixed(0)} | ${c.query.replace(/\|/g, '\\|')} |`);
  }
}
