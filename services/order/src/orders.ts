import { decideAndAppend } from '@shop/shared/eventstore/command';
import type { PostgresEventStore } from '@shop/shared/eventstore/postgres-event-store';
import { decideOrder, evolveOrder, initialOrderState, type OrderCommand } from './order/decider.ts';
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

  /** Reads the stream, decides, appends at the version read; re-run when another admin got there first. */
  private async run(orderNumber: string, actor: string, command: (now: Date) => OrderCommand): Promise<Written> {
    const streamId = orderStreamId(orderNumber);
    return {
      streamId,
      version: await decideAndAppend(this.store, streamId, ORDER, () => command(this.clock()), actor),
    };
  }
}
