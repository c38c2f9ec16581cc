import { decideAndAppend, decideOnStream } from '@shop/shared/eventstore/command';
import type { PostgresEventStore } from '@shop/shared/eventstore/postgres-event-store';
import {
  decideOrder,
  evolveOrder,
  initialOrderState,
  type OrderCommand,
  type RecordShipment,
  type RecordTrackingUpdate,
} from './order/decider.ts';
import { orderStreamId, type DeliveryStatus } from './order/events.ts';

const ORDER = { initialState: initialOrderState, evolve: evolveOrder, decide: decideOrder };

/** A command's effect: the order stream and the version it is at afterwards (for read-your-writes waits). */
export interface Written {
  streamId: string;
  version: number;
}

/** Application service: the admin's order commands against the orders event store. */
export class Orders {
  constructor(
    private readonly store: PostgresEventStore,
    private readonly clock: () => Date,
  ) {}

  changeDeliveryStatus(orderNumber: string, to: DeliveryStatus, actor: string): Promise<Written> {
    return this.run(orderNumber, actor, (now) => ({
      type: 'ChangeDeliveryStatus',
      data: { to, changedBy: actor, now },
    }));
  }

  markSeen(orderNumber: string, actor: string): Promise<Written> {
    return this.run(orderNumber, actor, (now) => ({ type: 'MarkOrderSeen', data: { seenBy: actor, now } }));
  }

  /** Delivered orders only (ConflictError otherwise). */
  delete(orderNumber: string, actor: string): Promise<Written> {
    return this.run(orderNumber, actor, (now) => ({ type: 'DeleteOrder', data: { deletedBy: actor, now } }));
  }

  /** The shipment the provider made (shipping/shipments.ts); the same AWB again records nothing. */
  recordShipment(orderNumber: string, shipment: RecordShipment['data']['shipment']): Promise<Written> {
    return this.run(orderNumber, 'shipping', (now) => ({ type: 'RecordShipment', data: { shipment, now } }));
  }

  /** The provider refused to make the order's shipment (shipping/shipments.ts); the same reason again records nothing. */
  recordShipmentRefusal(orderNumber: string, reason: string): Promise<Written> {
    return this.run(orderNumber, 'shipping', (now) => ({ type: 'RecordShipmentRefusal', data: { reason, now } }));
  }

  /** The provider cancelled the cancelled order's shipment (shipping/shipment-cancellation.ts); once. */
  recordShipmentCancellation(orderNumber: string, awb: string): Promise<Written> {
    return this.run(orderNumber, 'shipping', (now) => ({ type: 'RecordShipmentCancellation', data: { awb, now } }));
  }

  /**
   * A tracking update from the provider (its webhook, or the tracking sweep), in log order with the admin's status changes; `recorded`
   * is false when it was recorded before (a redelivery).
   */
  async recordTrackingUpdate(
    orderNumber: string,
    update: Omit<RecordTrackingUpdate['data'], 'now'>,
  ): Promise<Written & { recorded: boolean }> {
    const streamId = orderStreamId(orderNumber);
    const decision = await decideOnStream(
      this.store,
      streamId,
      ORDER,
      (): OrderCommand => ({ type: 'RecordTrackingUpdate', data: { ...update, now: this.clock() } }),
      'shiprocket',
    );
    return { streamId, version: decision.version, recorded: decision.events.length > 0 };
  }

  /**
   * Cancels the order: the shopper's own while canShopperCancel, or an admin's any not delivered, with a
   * reason. A status change or shipment racing it on the stream is decided on fresh state: one wins, the
   * other is refused (ConflictError, 409). Checkout then returns the stock and coupon use and refunds.
   */
  cancel(orderNumber: string, as: 'shopper' | 'admin', actor: string, reason: string): Promise<Written> {
    return this.run(orderNumber, actor, (now) => ({ type: 'CancelOrder', data: { as, by: actor, reason, now } }));
  }

  /** Reads the stream, decides, appends at the version read; re-run when another admin got there first. */
  private async run(orderNumber: string, actor: string, command: (now: Date) => OrderCommand): Promise<Written> {
    const streamId = orderStreamId(orderNumber);
    return {
      streamId,
      version: await decideAndAppend(this.store, streamId, ORDER, () => command(this.clock()), actor),
    };
  }
}
