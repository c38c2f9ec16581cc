import type { EventConsumer } from '@shop/shared/bus/types';
import { ValidationError } from '@shop/shared/errors/errors';
import type { OrderState } from '../order/decider.ts';
import type { OrderPlaced } from '../order/events.ts';
import { PendingOrderWork, type PendingOrderWorkDeps } from './pending-order-work.ts';
import type { ShipmentRequest } from './shipping-provider.ts';

export const SHIPPING_CONSUMER = 'orders.shipping';
/** The job that creates shipments left pending (a failed provider call, or a process that died after commit). */
export const SHIPMENT_PENDING_JOB = 'orders.shipment-pending';

/**
 * Process manager: an OrderPlaced becomes a row of orders.pending_shipments in the bus transaction (so a
 * placed order is never left without a shipment); ShipmentCreated removes it. The provider is called after
 * the commit (`shipments.run`), never inside a bus transaction.
 */
export function shippingConsumer(shipments: PendingShipments): EventConsumer<true> {
  return {
    name: SHIPPING_CONSUMER,
    schema: 'orders',
    sources: ['orders'],
    eventTypes: ['OrderPlaced', 'ShipmentCreated'],
    async handle(event, tx) {
      const orderNumber = (event.data as { orderNumber: string }).orderNumber;
      if (event.type === 'OrderPlaced') await shipments.record(tx, orderNumber);
      else await shipments.settle(tx, orderNumber);
      return true;
    },
    afterCommit() {
      shipments.kick();
    },
  };
}

/**
 * The shipments decided and not yet made (PendingOrderWork). Each is made once: the order number is the
 * provider's order_id, so an attempt after one that died between the provider's answer and the record finds
 * that attempt's shipment, not a second one. An order that already has its shipment, is gone, or is no longer
 * Processing is left alone; a cancelled one is not shipped, and what an earlier attempt made is found and undone.
 */
export class PendingShipments extends PendingOrderWork {
  constructor(deps: PendingOrderWorkDeps) {
    super(deps, 'orders.pending_shipments', 'creating the shipment');
  }

  protected async act(
    orderNumber: string,
    events: ReadonlyArray<{ type: string; data: unknown }>,
    state: OrderState,
  ): Promise<void> {
    const placed = events.find((e) => e.type === 'OrderPlaced')?.data as OrderPlaced['data'] | undefined;
    if (!placed || state.status !== 'placed' || state.awb) return;
    if (state.cancelled) return this.recordMadeBeforeCancel(orderNumber);
    // Only an order still being processed is shipped (not one delivered by hand, or no longer on its way).
    if (state.deliveryStatus !== 'Processing') return;
    let shipment;
    try {
      shipment = await this.deps.provider.createShipment(shipmentRequest(placed));
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      // A refusal, not an outage: asking again gets the same answer. Recorded for the admin; the row is parked.
      await this.deps.orders.recordShipmentRefusal(orderNumber, refusalReason(err));
      throw new ShipmentRefusedError(orderNumber, err);
    }
    await this.deps.orders.recordShipment(orderNumber, shipment);
    this.deps.logger.info({ orderNumber, awb: shipment.awb, courier: shipment.courier }, 'shipment created');
  }

  /** A refused shipment (recorded as ShipmentRefused) is parked, not retried; any other failure is retried. */
  protected override nextAttempt(err: unknown, row: { order_number: string; attempts: number }): Date | 'infinity' {
    if (!(err instanceof ShipmentRefusedError)) return super.nextAttempt(err, row);
    this.deps.logger.warn(
      { err: err.cause, orderNumber: row.order_number },
      'the shipping provider refused the shipment; parked (the admin sees why)',
    );
    return 'infinity';
  }

  /**
   * A cancelled order is not shipped, but an earlier attempt may have made its shipment and died before the
   * record: the provider's order list says. One with an AWB is recorded, so the shipment cancellation cancels
   * it (and the admin sees it); one the provider has with no AWB yet (no courier was booked) is cancelled here.
   */
  private async recordMadeBeforeCancel(orderNumber: string): Promise<void> {
    const made = await this.deps.provider.findShipment(orderNumber);
    if (!made) return;
    if (made.awb) {
      await this.deps.orders.recordShipment(orderNumber, made);
      this.deps.logger.info({ orderNumber, awb: made.awb }, 'shipment made before the cancel recorded, to cancel');
      return;
    }
    await this.deps.provider.cancelShipment({ orderNumber, awb: '', providerOrderId: made.providerOrderId });
    this.deps.logger.info({ orderNumber }, 'provider order made before the cancel cancelled');
  }
}

/** The provider refused the order's shipment (recorded): the pending row is parked. */
class ShipmentRefusedError extends Error {
  constructor(orderNumber: string, cause: ValidationError) {
    super(`The shipping provider refused the shipment of ${orderNumber}: ${cause.message}`, { cause });
    this.name = 'ShipmentRefusedError';
  }
}

/** The provider's own words of a refusal (the adapter's details), else the error's message. */
function refusalReason(err: ValidationError): string {
  const words = (err.details as { providerMessage?: unknown } | undefined)?.providerMessage;
  return typeof words === 'string' && words.trim() ? words : err.message;
}

/** The shipment request of a placed order. */
export function shipmentRequest(o: OrderPlaced['data']): ShipmentRequest {
  return {
    orderNumber: o.orderNumber,
    placedAt: new Date(o.placedAt),
    customer: o.customer,
    address: o.address,
    pincode: o.pincode,
    lines: o.lines.map((l) => ({
      productId: l.productId,
      name: l.name,
      size: l.size,
      color: l.color,
      quantity: l.quantity,
      unitPricePaise: l.unitPricePaise,
    })),
    subtotalPaise: o.subtotalPaise,
    discountPaise: o.discountPaise,
    chargesPaise: o.shippingChargePaise + o.deliveryChargePaise,
    totalPaise: o.totalPaise,
  };
}
