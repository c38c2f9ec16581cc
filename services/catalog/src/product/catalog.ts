import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { withTransaction } from '@shop/shared/db/pool';
import { retryOnConflict } from '@shop/shared/eventstore/command';
import type { PostgresEventStore } from '@shop/shared/eventstore/postgres-event-store';
import type { RecordedEvent } from '@shop/shared/eventstore/types';
import {
  decideProduct,
  evolveProduct,
  initialProductState,
  type ProductCommand,
  type ProductState,
} from './decider.ts';
import { productStreamId, type ProductDetails, type ProductEvent } from './events.ts';
import { evolveStock, heldUnits, initialStockState, type StockState } from '../stock/decider.ts';
import { stockEventsFor, stockLevelsFor, type StockInput } from '../stock/stock-levels.ts';

export type { StockInput } from '../stock/stock-levels.ts';
import { stockStreamId, type StockEvent } from '../stock/events.ts';

/** Streams touched by a command, with the version each reached (for read-your-writes waits). */
export type Written = Array<{ streamId: string; version: number }>;

/** Application service: product and stock commands against the catalog event store. */
export class Catalog {
  constructor(
    private readonly store: PostgresEventStore,
    private readonly clock: () => Date,
  ) {}

  async createProduct(
    details: Omit<ProductDetails, 'sizeLabels'>,
    stock: Required<StockInput>,
    opts: { productId?: string; actor?: string } = {},
  ): Promise<{ productId: string; written: Written }> {
    const productId = opts.productId ?? randomUUID();
    const written = await this.inTransaction(async (tx, out) => {
      const now = this.clock();
      const sizeLabels = stock.sizeQuantities.map(([s]) => s);
      await this.run(
        tx,
        out,
        productId,
        { type: 'CreateProduct', data: { productId, details: { ...details, sizeLabels }, now } },
        opts.actor,
      );
      await this.setStock(tx, out, productId, stock, [], opts.actor);
    });
    return { productId, written };
  }

  async updateProduct(
    productId: string,
    changes: Partial<Omit<ProductDetails, 'sizeLabels'>>,
    stock: StockInput,
    actor?: string,
  ): Promise<Written> {
    return this.inTransaction(async (tx, out) => {
      const now = this.clock();
      const all: Partial<ProductDetails> = { ...changes };
      if (stock.sizeQuantities) all.sizeLabels = stock.sizeQuantities.map(([s]) => s);
      const before = await this.run(
        tx,
        out,
        productId,
        { type: 'ChangeProductDetails', data: { changes: all, now } },
        actor,
      );
      const sizeLabels = 'details' in before ? before.details.sizeLabels : [];
      await this.setStock(tx, out, productId, stock, sizeLabels, actor);
    });
  }

  async setListing(productId: string, isDelisted: boolean, actor?: string): Promise<Written> {
    return this.inTransaction(async (tx, out) => {
      await this.run(tx, out, productId, { type: 'SetListing', data: { isDelisted, now: this.clock() } }, actor);
    });
  }

  async deleteProduct(productId: string, actor?: string): Promise<Written> {
    return this.inTransaction(async (tx, out) => {
      await this.run(tx, out, productId, { type: 'DeleteProduct', data: { now: this.clock() } }, actor);
    });
  }

  async productState(productId: string): Promise<ProductState> {
    return (await this.store.aggregate(productStreamId(productId), evolveProduct, initialProductState())).state;
  }

  private async run(
    tx: pg.PoolClient,
    out: RecordedEvent[],
    productId: string,
    command: ProductCommand,
    actor?: string,
  ): Promise<ProductState> {
    const streamId = productStreamId(productId);
    const { state, version } = await this.store.aggregate<ProductState, ProductEvent>(
      streamId,
      evolveProduct,
      initialProductState(),
      tx,
    );
    const events = decideProduct(command, state);
    if (events.length)
      out.push(...(await this.store.append(streamId, version, events, { tx, metadata: { actor } })).events);
    return state;
  }

  /**
   * Sets the stock levels the admin asked for, keeping one truth of units per product (stockLevelsFor):
   * a product sold by size has its units only in its sizes' streams, one sold without sizes only in the
   * general stream, and the other side is off sale, so no unit can be sold twice from two places; live
   * holds are carried across a change of mode (stockEventsFor).
   */
  private async setStock(
    tx: pg.PoolClient,
    out: RecordedEvent[],
    productId: string,
    stock: StockInput,
    previousSizeLabels: string[],
    actor?: string,
  ): Promise<void> {
    const current = async (size: string | null) =>
      this.store.aggregate<StockState, StockEvent>(
        stockStreamId(productId, size),
        evolveStock,
        initialStockState(),
        tx,
      );
    // Units on sale or held in a size: the product is stocked by size (a count alone would leave holds there).
    const sizesHaveStock = async () => {
      for (const size of previousSizeLabels) {
        const { state } = await current(size);
        if (state.available > 0 || heldUnits(state) > 0) return true;
      }
      return false;
    };
    const levels = stockLevelsFor(stock, previousSizeLabels, stock.sizeQuantities ? false : await sizesHaveStock());
    const loaded = new Map<string | null, { state: StockState; version: number }>();
    for (const size of new Set([null, ...levels.map(([s]) => s)])) loaded.set(size, await current(size));
    const states = new Map([...loaded].map(([size, l]) => [size, l.state]));
    for (const [size, events] of stockEventsFor(productId, levels, states, this.clock()))
      if (events.length)
        out.push(
          ...(
            await this.store.append(stockStreamId(productId, size), loaded.get(size)!.version, events, {
              tx,
              metadata: { actor },
            })
          ).events,
        );
  }

  /** One transaction for the whole command; retried on a version conflict; listeners told after commit. */
  private async inTransaction(fn: (tx: pg.PoolClient, out: RecordedEvent[]) => Promise<void>): Promise<Written> {
    return retryOnConflict(async () => {
      const out: RecordedEvent[] = [];
      await withTransaction(this.store.pool, (tx) => fn(tx, out));
      this.store.notifyAppended(out);
      const last = new Map<string, number>();
      for (const e of out) last.set(e.streamId, e.streamVersion);
      return [...last].map(([streamId, version]) => ({ streamId, version }));
    });
  }
}
