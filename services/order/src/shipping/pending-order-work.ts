import type pg from 'pg';
import { LeasedPendingRows } from '@shop/shared/bus/pending-work';
import type { PostgresEventStore } from '@shop/shared/eventstore/postgres-event-store';
import type { Logger } from '@shop/shared/observability/logger';
import { evolveOrder, initialOrderState, type OrderState } from '../order/decider.ts';
import { orderStreamId, type OrderEvent } from '../order/events.ts';
import type { Orders } from '../orders.ts';
import type { ShippingProvider } from './shipping-provider.ts';

/** The tables of order work left pending (migrations 032 and 039): one row per order number. */
export type PendingOrderTable = 'orders.pending_shipments' | 'orders.pending_shipment_cancellations';

export interface PendingOrderWorkDeps {
  pool: pg.Pool;
  store: PostgresEventStore;
  orders: Orders;
  provider: ShippingProvider;
  clock: () => Date;
  logger: Logger;
}

interface DueOrderWork {
  order_number: string;
  attempts: number;
}

/**
 * Work with the shipping provider on an order, decided in a bus transaction (`record`) and carried out after the
 * commit (`run`), a leased table's rows (LeasedPendingRows: one runner at a time per order, retried until done):
 * each is carried out on the order's events as they are then (`act`, which must be safe to repeat after an
 * attempt that died between the provider's answer and the record).
 */
export abstract class PendingOrderWork extends LeasedPendingRows<DueOrderWork> {
  constructor(
    protected readonly deps: PendingOrderWorkDeps,
    table: PendingOrderTable,
    /** What the work is, for logs ('creating the shipment'). */
    private readonly what: string,
  ) {
    super({
      pool: deps.pool,
      clock: deps.clock,
      table: { name: table, key: 'order_number', columns: ['order_number'] },
      onError: (err) => deps.logger.error({ err }, `${what} failed`),
    });
  }

  /** Records the order's work in the caller's (bus) transaction; recorded already, nothing changes. */
  async record(tx: pg.PoolClient, orderNumber: string): Promise<void> {
    await tx.query(
      `INSERT INTO ${this.leased.table.name} (order_number, created_at, next_attempt_at)
       VALUES ($1, $2, $2) ON CONFLICT (order_number) DO NOTHING`,
      [orderNumber, this.deps.clock()],
    );
  }

  /** Does the work for the order, given its events and state; throws to be retried. */
  protected abstract act(
    orderNumber: string,
    events: ReadonlyArray<{ type: string; data: unknown }>,
    state: OrderState,
  ): Promise<void>;

  /** Logs a failed attempt and answers when the row is due again ('infinity': parked, never). */
  protected nextAttempt(err: unknown, row: DueOrderWork): Date | 'infinity' {
    this.deps.logger.warn(
      { err, orderNumber: row.order_number, attempts: row.attempts + 1 },
      `${this.what} failed; it will be retried`,
    );
    return this.retryAt(row);
  }

  protected async perform({ order_number: orderNumber }: DueOrderWork): Promise<void> {
    const events = await this.deps.store.readStream(orderStreamId(orderNumber));
    const state = events.reduce(
      (s, e) => evolveOrder(s, { type: e.type, data: e.data } as OrderEvent),
      initialOrderState(),
    );
    await this.act(orderNumber, events, state);
  }
}
