import type { OrderView } from '../read-models/orders/orders-queries.ts';

/** What the confirmation page shows: the order as the buyer's own list has it, less what is the shop's business. */
export type OrderConfirmationView = Omit<OrderView, 'seen' | 'User' | 'shipmentProblem'>;

/** The order as the confirmation read and the confirmation stream answer it. */
export function confirmationView(order: OrderView): OrderConfirmationView {
  const { seen: _seen, User: _user, shipmentProblem: _problem, ...view } = order;
  return view;
}
