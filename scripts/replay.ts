/**
 * Replay: rebuilds projections from position 0 into shadow tables and swaps them in atomically, or, with
 * --verify, compares the rebuilt tables with the live ones.
 *
 *   npm run replay -- --all                       every projection
 *   npm run replay -- catalog.products orders.orders
 *   npm run replay -- --all --verify              exit 1 naming projection, table and differing keys
 *   options: --batch <events per transaction, 5000>  --concurrency <projections at once, 2>  --json
 *            --no-fold (every event through the live consumer, not the read models run in memory)
 *            --fold-batch <events per read of the in-memory runs' shared reader, 50000>
 *
 * Safe while the shop runs: the swap happens under the consumer's checkpoint lock and moves the checkpoint
 * to where the shadow stopped, so the live consumer carries on from there (services/shared/src/replay).
 * Database: DATABASE_URL, else DATA_DIR's embedded Postgres (the running shop's server, or started here).
 * Progress: a bar on a terminal (events, events/s, ETA), else a line every 2 s, on stderr.
 */
import {
  replayProjections,
  type ProjectionReport,
  type ReplayProgress,
  type ReplayTarget,
} from '../services/shared/src/replay/projection-replay.ts';
import type { EventConsumer } from '../services/shared/src/bus/types.ts';
import { runCli } from './lib/run-cli.ts';
import { openShopTools } from './lib/shop-tools.ts';
import * as accounts from '@shop/accounts';
import * as catalog from '@shop/catalog';
import * as checkout from '@shop/checkout';
import * as order from '@shop/order';

/**
 * The shop's projections as each service registers them beside themselves (its package index's
 * `readModels`), and its process managers, which are not replayed: they act (append events, commit stock)
 * rather than keep a read model, and replaying them would act again.
 */
const SERVICES = [accounts, catalog, checkout, order];
export const PROJECTIONS = new Map(SERVICES.flatMap((s) => s.readModels).map((p) => [p.name, p]));
export const PROCESS_MANAGERS: readonly string[] = SERVICES.flatMap((s) => s.processManagers);

const USAGE =
  'usage: npm run replay -- [NAME ... | --all] [--verify] [--batch N] [--concurrency N] [--no-fold] [--fold-batch N] [--json]\n' +
  `projections: ${[...PROJECTIONS.keys()].join(', ')}`;

/** The replay targets among the shop's consumers; throws naming an unknown or unreplayable name. */
export function selectTargets(
  consumers: readonly EventConsumer[],
  names: string[] | 'all',
  folds = true,
): ReplayTarget[] {
  const unlisted = consumers.filter((c) => !PROJECTIONS.has(c.name) && !PROCESS_MANAGERS.includes(c.name));
  if (unlisted.length)
    throw new Error(
      `Consumers that no service registers (its package index's readModels or processManagers): ${unlisted.map((c) => c.name).join(', ')}`,
    );
  const projections = consumers.filter((c) => PROJECTIONS.has(c.name));
  const chosen =
    names === 'all'
      ? projections
      : names.map((n) => {
          if (PROCESS_MANAGERS.includes(n)) throw new Error(`${n} is a process manager: it is not replayed`);
          const c = projections.find((p) => p.name === n);
          if (!c) throw new Error(`Unknown projection ${n}`);
          return c;
        });
  return chosen.map((consumer) => {
    const registered = PROJECTIONS.get(consumer.name)!;
    const fold = folds ? registered.fold?.bind(registered) : undefined;
    return { consumer, tables: registered.tables, ...(fold ? { fold } : {}) };
  });
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

function progressPrinter(tty: boolean, write: (s: string) => void) {
  const started = Date.now();
  let lastLine = 0;
  let last: ReplayProgress = { done: 0, total: 0 };
  const line = (p: ReplayProgress) => {
    const secs = Math.max(0.001, (Date.now() - started) / 1000);
    const rate = p.done / secs;
    const eta = rate > 0 ? Math.max(0, (p.total - p.done) / rate) : 0;
    const pct = p.total ? Math.min(100, (100 * p.done) / p.total) : 100;
    return { pct, text: `${fmt(p.done)}/${fmt(p.total)} events  ${fmt(rate)} events/s  ETA ${eta.toFixed(0)} s` };
  };
  return {
    update(p: ReplayProgress) {
      last = p;
      const now = Date.now();
      if (tty) {
        if (now - lastLine < 100 && p.done < p.total) return;
        lastLine = now;
        const { pct, text } = line(p);
        const width = 30;
        const filled = Math.round((pct / 100) * width);
        write(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${pct.toFixed(1).padStart(5)}%  ${text}   `);
      } else if (now - lastLine >= 2_000) {
        lastLine = now;
        const { pct, text } = line(p);
        write(`replay: ${pct.toFixed(1)}%  ${text}\n`);
      }
    },
    end() {
      const { pct, text } = line(last);
      write(tty ? `\r[${'#'.repeat(30)}] ${pct.toFixed(1).padStart(5)}%  ${text}\n` : `replay: done  ${text}\n`);
    },
  };
}

function printReports(reports: ProjectionReport[], verify: boolean, out: (s: string) => void): void {
  for (const r of reports) {
    const where = Object.entries(r.position)
      .map(([s, p]) => `${s}@${p}`)
      .join(', ');
    out(
      `${r.projection}: ${fmt(r.events)} events in ${(r.ms / 1000).toFixed(2)} s, ${verify ? 'compared at' : 'swapped in at'} ${where}`,
    );
    for (const t of r.tables) {
      if (!verify) out(`  ${t.table}: ${fmt(t.rows)} rows, checksum ${t.checksum}`);
      else if (t.checksum === t.liveChecksum)
        out(`  ${t.table}: identical (${fmt(t.rows)} rows, checksum ${t.checksum})`);
      else {
        out(
          `  MISMATCH ${r.projection} ${t.table}: live ${fmt(t.liveRows ?? 0)} rows ${t.liveChecksum}, rebuilt ${fmt(t.rows)} rows ${t.checksum}`,
        );
        for (const d of t.differences ?? []) out(`    ${d.kind}: ${d.key}`);
      }
    }
  }
}

export async function replayCli(argv: string[]): Promise<number> {
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const flagsWithValues = new Set(['--batch', '--concurrency', '--fold-batch']);
  const names = argv.filter((a, i) => !a.startsWith('--') && !flagsWithValues.has(argv[i - 1] ?? ''));
  const all = argv.includes('--all');
  const verify = argv.includes('--verify');
  const json = argv.includes('--json');
  if ((all && names.length) || (!all && !names.length) || argv.includes('--help')) {
    console.error(USAGE);
    return 2;
  }
  const tools = await openShopTools();
  try {
    let targets: ReplayTarget[];
    try {
      targets = selectTargets(tools.consumers, all ? 'all' : names, !argv.includes('--no-fold'));
    } catch (err) {
      console.error(`${(err as Error).message}\n${USAGE}`);
      return 2;
    }
    const folded = targets.filter((t) => t.fold).length;
    console.error(
      `${verify ? 'verify' : 'replay'}: ${targets.length} projection(s) (${folded} folded in memory) on ${tools.db.how}`,
    );
    const progress = progressPrinter(process.stderr.isTTY === true, (s) => process.stderr.write(s));
    const started = Date.now();
    const reports = await replayProjections({
      pool: tools.infra.pool,
      targets,
      stores: SERVICE_STORES.map((s) => tools.infra.context.eventStore(s)),
      verify,
      batchSize: Number(value('--batch') ?? 5_000),
      concurrency: Number(value('--concurrency') ?? 2),
      foldBatchSize: Number(value('--fold-batch') ?? 50_000),
      onProgress: (p) => progress.update(p),
    });
    progress.end();
    const events = reports.reduce((n, r) => n + r.events, 0);
    const secs = (Date.now() - started) / 1000;
    if (json) console.log(JSON.stringify({ verify, events, seconds: secs, projections: reports }, null, 2));
    else {
      printReports(reports, verify, (s) => console.log(s));
      console.log(
        `${fmt(events)} events replayed in ${secs.toFixed(2)} s (${fmt(events / Math.max(secs, 0.001))} events/s)`,
      );
    }
    if (verify) {
      const bad = reports.filter((r) => !r.identical);
      if (bad.length) {
        if (json) for (const r of bad) console.error(`MISMATCH ${r.projection}`);
        return 1;
      }
      if (!json) console.log('verify: every projection is identical to its rebuild');
    }
    return 0;
  } finally {
    await tools.close();
  }
}

const SERVICE_STORES = ['accounts', 'catalog', 'checkout', 'orders'];

runCli(import.meta.url, replayCli, 2);
