import type { PubSub } from '@shop/shared/cache/types';
import type { ReserveLine } from '@shop/shared/contracts/inventory';
import type { PostgresEventStore } from '@shop/shared/eventstore/postgres-event-store';
import type { Logger } from '@shop/shared/observability/logger';
import { stockStreamId } from '../stock/events.ts';
import { certainRefusal, NO_HOLD } from './inventory.ts';
import type { ProductFacts, ProductFactsView } from './product-facts.ts';
import type { StockWatcher, StockWriter } from './stock-writer.ts';

/** The pub/sub channel of products' sold-out stocks (one message per product, its whole state). */
export const SOLD_OUT_CHANNEL = 'catalog.sold-out';
/** The channel ProductFactsView announces changed products on (a JSON array of product ids). */
const PRODUCT_FACTS_CHANNEL = 'catalog.product-facts.changed';
/** How often the catalog says again what is still sold out (and reads each sold-out stock to be sure). */
export const SOLD_OUT_REFRESH_MS = 400;
/** How long a reader trusts a product's sold-out message: a few refreshes, then it asks the catalog again. */
export const SOLD_OUT_TTL_MS = 1_500;

/**
 * A product's sold-out stocks: `soldOut` lists the stock sizes (null: its general quantity) with no unit on
 * sale; empty clears every flag of the product. The facts are what a refusal names and decides by.
 */
export interface SoldOutNotice {
  productId: string;
  soldOut: Array<string | null>;
  name?: string;
  sizeQuantities?: Record<string, number>;
}

/** Stock events that may put units back on sale (the writer's freeing commands, or a product edit's). */
const FREEING_EVENTS = new Set(['StockReleased', 'StockLevelSet']);

/**
 * The catalog's side of the distributed gateway's sold-out answer (issue 24): publishes, per product, which of
 * its stocks have no unit on sale, on SOLD_OUT_CHANNEL. A stock is flagged when a hold decided on it leaves
 * it certainly sold out (StockWriter.soldOutFor); every SOLD_OUT_REFRESH_MS the flagged stocks are read again
 * (a stale one from Postgres) and said again, or cleared. Anything that may put units back clears the
 * product's flags before it is written: a release or stock level through the writer (StockWatcher.freeing),
 * a stock event appended outside it (a product edit, seen as it is appended), a change of the product's facts.
 * A reader trusts a message for SOLD_OUT_TTL_MS only, so a lost clear refuses wrongly for that long at most;
 * the flags only ever refuse, never take a unit.
 */
export class SoldOutBeacon implements StockWatcher {
  /** Flagged stocks by product: stream id -> stock size. */
  private readonly flagged = new Map<string, Map<string, string | null>>();
  /** Bumped on every clear of a product: a publish that began before it is dropped. */
  private readonly generation = new Map<string, number>();
  private timer?: NodeJS.Timeout;
  private refreshing = false;
  private readonly unsubscribers: Array<() => unknown> = [];

  constructor(
    private readonly opts: {
      writer: StockWriter;
      products: ProductFactsView;
      store: PostgresEventStore;
      pubsub: PubSub;
      logger: Logger;
    },
  ) {}

  async start(): Promise<void> {
    this.opts.writer.watch(this);
    this.unsubscribers.push(
      this.opts.store.onAppended((events) => {
        for (const e of events) if (FREEING_EVENTS.has(e.type)) this.clear((e.data as { productId: string }).productId);
      }),
      await this.opts.pubsub.subscribe(PRODUCT_FACTS_CHANNEL, (message) => {
        const ids = parseIds(message);
        for (const id of ids ?? [...this.flagged.keys()]) this.clear(id);
      }),
    );
    this.timer = setInterval(() => void this.refresh(), SOLD_OUT_REFRESH_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    for (const u of this.unsubscribers.splice(0)) await u();
  }

  freeing(_streamId: string, productId: string): void {
    this.clear(productId);
  }

  reserved(streamId: string, productId: string, size: string | null): void {
    const stocks = this.flagged.get(productId);
    if (stocks?.has(streamId) || this.opts.writer.soldOutFor(streamId, NO_HOLD, 1) === null) return;
    if (stocks) stocks.set(streamId, size);
    else this.flagged.set(productId, new Map([[streamId, size]]));
    void this.publish(productId);
  }

  /** Clears the product's flags, here and (published at once) at every reader. */
  private clear(productId: string): void {
    if (!this.flagged.delete(productId)) return;
    this.generation.set(productId, (this.generation.get(productId) ?? 0) + 1);
    this.send({ productId, soldOut: [] });
  }

  /** Says the product's flagged stocks with its facts now, unless a clear came meanwhile. */
  private async publish(productId: string): Promise<void> {
    const generation = this.generation.get(productId) ?? 0;
    const product = await this.opts.products.get(productId).catch(() => null);
    const stocks = this.flagged.get(productId);
    if ((this.generation.get(productId) ?? 0) !== generation || !stocks) return;
    if (!product || product.isDelisted) return this.clear(productId);
    this.send({
      productId,
      soldOut: [...stocks.values()],
      name: product.name,
      sizeQuantities: product.sizeQuantities,
    });
  }

  private send(notice: SoldOutNotice): void {
    this.opts.pubsub.publish(SOLD_OUT_CHANNEL, JSON.stringify(notice)).catch((err: unknown) => {
      this.opts.logger.warn({ err, productId: notice.productId }, 'sold-out flag not published');
    });
  }

  /** Reads every flagged stock again (in turn with its commands) and says what is still sold out. */
  private async refresh(): Promise<void> {
    if (this.refreshing) return;
    this.refreshing = true;
    try {
      for (const [productId, stocks] of [...this.flagged]) {
        const generation = this.generation.get(productId) ?? 0;
        for (const stream of [...stocks.keys()]) {
          // available() catches up from Postgres when the state is older than the writer trusts.
          if (this.opts.writer.soldOutFor(stream, NO_HOLD, 1) === null) await this.opts.writer.available(stream);
          if (this.opts.writer.soldOutFor(stream, NO_HOLD, 1) === null) stocks.delete(stream);
        }
        if ((this.generation.get(productId) ?? 0) !== generation) continue;
        if (stocks.size === 0) this.clear(productId);
        else await this.publish(productId);
      }
    } catch (err) {
      this.opts.logger.warn({ err }, 'sold-out flags not refreshed');
    } finally {
      this.refreshing = false;
    }
  }
}

function parseIds(message: string): string[] | null {
  try {
    const ids = JSON.parse(message) as unknown;
    return Array.isArray(ids) && ids.every((id) => typeof id === 'string') ? ids : null;
  } catch {
    return null;
  }
}

/**
 * The sold-out flags as a process other than the catalog holds them (the distributed gateway): each product's
 * last message, trusted for SOLD_OUT_TTL_MS from its arrival. `refusalFromMemory` answers what the inventory
 * would (certainRefusal, the same rules) only when every line's stock is flagged and fresh; on any doubt
 * (unknown product, no fresh flag, messages lost to a dropped connection, not yet subscribed) null.
 */
export class SoldOutFlags {
  private readonly products = new Map<
    string,
    { facts: Pick<ProductFacts, 'id' | 'name' | 'isDelisted' | 'sizeQuantities'>; streams: Set<string>; until: number }
  >();
  private unsubscribe?: () => Promise<void>;

  constructor(
    private readonly pubsub: PubSub,
    private readonly now: () => number = () => performance.now(),
  ) {}

  async start(): Promise<void> {
    const drop = () => this.products.clear();
    const sold = await this.pubsub.subscribe(SOLD_OUT_CHANNEL, (m) => this.take(m), { onGap: drop });
    const facts = await this.pubsub.subscribe(
      PRODUCT_FACTS_CHANNEL,
      (m) => {
        const ids = parseIds(m);
        if (!ids) return drop();
        for (const id of ids) this.products.delete(id);
      },
      { onGap: drop },
    );
    this.unsubscribe = async () => {
      await sold();
      await facts();
      drop();
    };
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  /** Forgets every flag (a product write through this process: its answer must not be followed by a stale one). */
  dropAll(): void {
    this.products.clear();
  }

  private take(message: string): void {
    let n: SoldOutNotice;
    try {
      n = JSON.parse(message) as SoldOutNotice;
    } catch {
      return;
    }
    if (typeof n.productId !== 'string') return;
    if (!Array.isArray(n.soldOut) || n.soldOut.length === 0 || typeof n.name !== 'string' || !n.sizeQuantities)
      return void this.products.delete(n.productId);
    this.products.set(n.productId, {
      facts: { id: n.productId, name: n.name, isDelisted: false, sizeQuantities: n.sizeQuantities },
      streams: new Set(n.soldOut.map((size) => stockStreamId(n.productId, size))),
      until: this.now() + SOLD_OUT_TTL_MS,
    });
  }

  /** The inventory's refusal of these lines, when fresh flags make it certain; else null. */
  refusalFromMemory(lines: ReserveLine[]): Promise<{ title: string; message: string } | null> {
    if (!this.unsubscribe) return Promise.resolve(null);
    const now = this.now();
    const fresh = (id: string) => {
      const p = this.products.get(id);
      return p && p.until > now ? p : undefined;
    };
    return certainRefusal(
      lines,
      async (id) => fresh(id)?.facts ?? null,
      (stream, quantity, productId) => (fresh(productId)?.streams.has(stream) && quantity > 0 ? 0 : null),
    );
  }
}
