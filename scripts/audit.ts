/**
 * Audit: an entity's whole history from the event logs, or the events consumers gave up on.
 *
 *   npm run audit -- order <orderNumber> [--json]     payment stream, stock reservation, order stream
 *   npm run audit -- payment <providerOrderId> [--json]
 *   npm run audit -- product <id> [--json]            product stream and its stock streams
 *   npm run audit -- user <email> [--json]            account, e-mail claims, testimonials, addresses
 *   npm run audit -- parked [--json] [--include-replayed]
 *   npm run audit -- parked --replay <schema:id ...|all>
 *
 * Events print in log order with position (`<schema>#<global position>`), India time, type, stream, actor,
 * correlation id and data. Database: DATABASE_URL, else DATA_DIR's embedded Postgres (the running shop's
 * server if there is one, else started here). Exit 0 found, 1 not found or a replay failed, 2 usage.
 */
import type { Pool } from 'pg';
import { accountsHistory } from '../services/accounts/src/index.ts';
import { catalogHistory } from '../services/catalog/src/index.ts';
import { checkoutHistory } from '../services/checkout/src/index.ts';
import { orderHistoryPart } from '../services/order/src/index.ts';
import {
  formatHistory,
  orderHistory,
  paymentHistory,
  productHistory,
  userHistory,
  type HistoryEntry,
} from '../services/shared/src/audit/event-history.ts';
import { formatParked, listAllParked, replayParked } from '../services/shared/src/audit/parked-audit.ts';
import { createPool } from '../services/shared/src/db/pool.ts';
import { runCli } from './lib/run-cli.ts';
import { openShopDatabase, openShopTools, SERVICE_SCHEMAS } from './lib/shop-tools.ts';

const USAGE = `usage: npm run audit -- order <orderNumber> | payment <providerOrderId> | product <id> | user <email> | parked [--replay <schema:id ...|all>] [--include-replayed]  [--json]`;

export async function audit(argv: string[], out: (line: string) => void = console.log): Promise<number> {
  const json = argv.includes('--json');
  const args = argv.filter((a) => a !== '--json');
  const [kind, key] = args;
  // Each service's part of a history, read in-process from its own log (this tool reaches the shop's database).
  const parts = (pool: Pool) => ({
    accounts: accountsHistory(pool),
    catalog: catalogHistory(pool),
    checkout: checkoutHistory(pool),
    order: orderHistoryPart(pool),
  });
  const lookups: Record<string, (pool: Pool, k: string) => Promise<HistoryEntry[] | null>> = {
    order: (pool, k) => orderHistory(parts(pool), k),
    payment: (pool, k) => paymentHistory(parts(pool), k),
    product: (pool, k) => productHistory(parts(pool).catalog, k),
    user: (pool, k) => userHistory(parts(pool), k),
  };
  if (kind === 'parked') {
    const replayAt = args.indexOf('--replay');
    if (replayAt >= 0) {
      const which = args.slice(replayAt + 1).filter((a) => !a.startsWith('--'));
      if (which.length === 0) {
        out(USAGE);
        return 2;
      }
      const tools = await openShopTools();
      try {
        const results = await replayParked(
          tools.infra.pool,
          SERVICE_SCHEMAS,
          tools.consumers,
          which.includes('all') ? 'all' : which,
        );
        if (json) out(JSON.stringify(results, null, 2));
        else {
          if (results.length === 0) out('No parked events to replay.');
          for (const r of results)
            out(`${r.ref} ${r.consumer}: ${r.ok ? 'replayed' : `FAILED: ${r.error ?? 'unknown error'}`}`);
        }
        return results.every((r) => r.ok) ? 0 : 1;
      } finally {
        await tools.close();
      }
    }
    return withPool(async (pool) => {
      const parked = await listAllParked(pool, SERVICE_SCHEMAS, {
        includeReplayed: args.includes('--include-replayed'),
      });
      out(json ? JSON.stringify(parked, null, 2) : formatParked(parked));
      return 0;
    });
  }
  const lookup = kind ? lookups[kind] : undefined;
  if (!lookup || !key) {
    out(USAGE);
    return 2;
  }
  return withPool(async (pool) => {
    const events = await lookup(pool, key);
    if (!events) {
      out(json ? JSON.stringify({ [kind!]: key, found: false, events: [] }) : `No ${kind} ${key} in the event logs.`);
      return 1;
    }
    out(
      json ? JSON.stringify({ [kind!]: key, found: true, events }, null, 2) : formatHistory(`${kind} ${key}`, events),
    );
    return 0;
  });
}

async function withPool(work: (pool: Pool) => Promise<number>): Promise<number> {
  const db = await openShopDatabase();
  const pool = createPool(db.url, 2);
  try {
    return await work(pool);
  } finally {
    await pool.end();
    await db.close();
  }
}

runCli(import.meta.url, audit, 2);
