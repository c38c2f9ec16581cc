import type { EventConsumer } from '@shop/shared/bus/types';
import { AppError, UnavailableError } from '@shop/shared/errors/errors';
import type { PostgresEventStore } from '@shop/shared/eventstore/postgres-event-store';
import type { ServiceContext } from '@shop/shared/runtime/service';
import { evolveOrder, initialOrderState, shipmentToCancel, type OrderState } from '../order/decider.ts';
import { orderStreamId, type ShipmentCreated } from '../order/events.ts';
import type { Orders } from '../orders.ts';
import { PendingOrderWork, type PendingOrderWorkDeps } from './pending-order-work.ts';
import type { ShippingProvider } from './shipping-provider.ts';

export const SHIPMENT_CANCELLATION_CONSUMER = 'orders.shipment-cancellation';

/**
 * Process manager: a cancelled order with a shipment not yet cancelled (OrderCancelled of an order that has an
 * AWB, or ShipmentCreated recorded after the cancel, a shipment made while the cancel landed) becomes a row of
 * orders.pending_shipment_cancellations in the bus transaction; ShipmentCancelled removes it. The provider is
 * called after the commit (`cancellations.run`), never inside a bus transaction.
 */
export function shipmentCancellationConsumer(
  store: PostgresEventStore,
  cancellations: PendingShipmentCancellations,
): EventConsumer<true> {
  return {
    name: SHIPMENT_CANCELLATION_CONSUMER,
    schema: 'orders',
    sources: ['orders'],
    eventTypes: ['OrderCancelled', 'ShipmentCreated', 'ShipmentCancelled'],
    async handle(event, tx) {
      const orderNumber = (event.data as { orderNumber: string }).orderNumber;
      if (event.type === 'ShipmentCancelled') {
        await cancellations.settle(tx, orderNumber);
        return;
      }
      const { state } = await store.aggregate(orderStreamId(orderNumber), evolveOrder, initialOrderState(), tx);
      if (!shipmentToCancel(state)) return;
      await cancellations.record(tx, orderNumber);
      return true;
    },
    afterCommit() {
      cancellations.kick();
    },
  };
}

/**
 * The shipment cancellations decided and not yet made (PendingOrderWork): the provider cancels the order's
 * shipment (again is harmless, so an attempt after one that died between the provider's answer and the record
 * only confirms it), then ShipmentCancelled is recorded. An order whose shipment is already cancelled, or that
 * is gone, is left alone. One the provider refuses (the parcel already with the courier) is not retried: it
 * stays parked with the refusal as its last_error and is logged for the admin, and the parcel's tracking goes on.
 */
export class PendingShipmentCancellations extends PendingOrderWork {
  constructor(deps: PendingOrderWorkDeps) {
    super(deps, 'orders.pending_shipment_cancellations', 'cancelling the shipment');
  }

  protected async act(
    orderNumber: string,
    events: ReadonlyArray<{ type: string; data: unknown }>,
    state: OrderState,
  ): Promise<void> {
    if (!shipmentToCancel(state)) return;
    const { awb } = state;
    const created = events.find((e) => e.type === 'ShipmentCreated' && (e.data as { awb: string }).awb === awb)
      ?.data as ShipmentCreated['data'] | undefined;
    const providerOrderId = created?.providerOrderId ?? (await this.providerOrderIdOf(orderNumber));
    await this.deps.provider.cancelShipment({ orderNumber, awb, providerOrderId });
    await this.deps.orders.recordShipmentCancellation(orderNumber, awb);
    this.deps.logger.info({ orderNumber, awb }, 'shipment cancelled');
  }

  /** A refusal (the parcel already with the courier) would be refused again: parked (never due) for the admin. */
  protected override nextAttempt(err: unknown, row: { order_number: string; attempts: number }): Date | 'infinity' {
    if (!(err instanceof AppError && !err.retriable)) return super.nextAttempt(err, row);
    this.deps.logger.error(
      { err, orderNumber: row.order_number },
      'the provider refused to cancel the shipment; it is left to the admin',
    );
    return 'infinity';
  }

  /**
   * The provider's order id of a shipment recorded before ShipmentCreated carried it: the provider's order of
   * this order number, from its order list.
   */
  private async providerOrderIdOf(orderNumber: string): Promise<string> {
    const found = await this.deps.provider.findShipment(orderNumber);
    if (!found) throw new UnavailableError(`The provider has no order ${orderNumber} to cancel the shipment of`);
    return found.providerOrderId;
  }
}

/**
 * The shipment cancellation of a service with a provider: its runner and its consumer. The runner has no job of
 * its own (a process has few job names): the shipments' job (SHIPMENT_PENDING_JOB) sweeps it too.
 */
export function shipmentCancellation(
  ctx: Pick<ServiceContext, 'pool' | 'clock' | 'logger'>,
  deps: { store: PostgresEventStore; orders: Orders; provider: ShippingProvider },
) {
  const runner = new PendingShipmentCancellations({ ...deps, pool: ctx.pool, clock: ctx.clock, logger: ctx.logger });
  return { runner, consumer: shipmentCancellationConsumer(deps.store, runner) };
}
