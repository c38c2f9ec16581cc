import { ConflictError, NotFoundError } from '@shop/shared/errors/errors';
import type { DeliveryStatus, OrderDetails, OrderEvent } from './events.ts';

export type OrderState =
  | { status: 'none' }
  | { status: 'placed'; orderNumber: string; userId: string | null; deliveryStatus: DeliveryStatus; seen: boolean }
  | { status: 'deleted'; orderNumber: string };

export type PlaceOrder = { type: 'PlaceOrder'; data: { order: OrderDetails; now: Date } };
export type ChangeDeliveryStatus = {
  type: 'ChangeDeliveryStatus';
  data: { to: DeliveryStatus; changedBy: string; now: Date };
};
export type MarkOrderSeen = { type: 'MarkOrderSeen'; data: { seenBy: string; now: Date } };
export type DeleteOrder = { type: 'DeleteOrder'; data: { deletedBy: string; now: Date } };
export type OrderCommand = PlaceOrder | ChangeDeliveryStatus | MarkOrderSeen | DeleteOrder;

export const ONLY_DELIVERED_CAN_BE_DELETED = 'Only delivered orders can be deleted';

export const initialOrderState = (): OrderState => ({ status: 'none' });

export function evolveOrder(state: OrderState, event: OrderEvent): OrderState {
  switch (event.type) {
    case 'OrderPlaced':
      return {
        status: 'placed',
        orderNumber: event.data.orderNumber,
        userId: event.data.userId,
        deliveryStatus: event.data.deliveryStatus,
        seen: false,
      };
    case 'DeliveryStatusChanged':
      return state.status === 'placed' ? { ...state, deliveryStatus: event.data.to } : state;
    case 'OrderMarkedSeen':
      return state.status === 'placed' ? { ...state, seen: true } : state;
    case 'OrderDeleted':
      return state.status === 'placed' ? { status: 'deleted', orderNumber: state.orderNumber } : state;
  }
}

/** A deleted order is gone for every command: the admin list no longer shows it. */
const placed = (state: OrderState) => {
  if (state.status !== 'placed') throw new NotFoundError('Order not found');
  return state;
};

export function decideOrder(command: OrderCommand, state: OrderState): OrderEvent[] {
  switch (command.type) {
    case 'PlaceOrder': {
      if (state.status !== 'none') throw new ConflictError('Order already exists');
      const { order, now } = command.data;
      return [
        {
          type: 'OrderPlaced',
          data: { ...order, paymentStatus: 'Paid', deliveryStatus: 'Processing', placedAt: now.toISOString() },
        },
      ];
    }
    case 'ChangeDeliveryStatus': {
      const s = placed(state);
      const { to, changedBy, now } = command.data;
      if (s.deliveryStatus === to) return [];
      return [
        {
          type: 'DeliveryStatusChanged',
          data: { orderNumber: s.orderNumber, from: s.deliveryStatus, to, changedBy, changedAt: now.toISOString() },
        },
      ];
    }
    case 'MarkOrderSeen': {
      const s = placed(state);
      if (s.seen) return [];
      return [
        {
          type: 'OrderMarkedSeen',
          data: { orderNumber: s.orderNumber, seenBy: command.data.seenBy, seenAt: command.data.now.toISOString() },
        },
      ];
    }
    case 'DeleteOrder': {
      const s = placed(state);
      if (s.deliveryStatus !== 'Delivered') throw new ConflictError(ONLY_DELIVERED_CAN_BE_DELETED);
      return [
        {
          type: 'OrderDeleted',
          data: {
            orderNumber: s.orderNumber,
            deletedBy: command.data.deletedBy,
            deletedAt: command.data.now.toISOString(),
          },
        },
      ];
    }
    default: {
      const never: never = command;
      throw new Error(`Unknown command ${JSON.stringify(never)}`);
    }
  }
}
