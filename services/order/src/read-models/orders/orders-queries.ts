import { queryRows, sql, type Query } from '@shop/shared/db/query-builder';
import { paiseToRupees } from '@shop/shared/money/money';
import type pg from 'pg';
import type { OrderLine } from '@shop/shared/contracts/payment-events';
import { canShopperCancel } from '../../order/decider.ts';
import { ORDER_COLUMNS } from './orders-projection.ts';

/** Money leaves the service in rupees (the seeds' clients expect numbers like 1499.5). */

/** A line as the seeds' clients read it (`Order.items[]`). */
export interface OrderItemView {
  Product: { id: string; name: string; price: number; image: string };
  orderedQuantity: number;
  size: string | null;
  color: string | null;
  totalAmount: number;
  deliveryStatus: string;
  address: string;
  customerName: string;
  customerPhone: string;
  customerEmail: string;
  shiprocketAWB: string | null;
  shiprocketTrackingUrl: string | null;
  shiprocketStatus: string | null;
}

/** An order as the API and the push stream answer it (seed 000/001 "Order"). */
export interface OrderView {
  id: string;
  orderNumber: string;
  items: OrderItemView[];
  createdAt: string;
  deliveryStatus: string;
  /** What was charged: subtotal - discount + shipping + delivery. */
  totalAmount: number;
  subtotal: number;
  discountAmount: number;
  couponCode: string | null;
  shippingCharge: number;
  deliveryCharge: number;
  customerName: string;
  customerPhone: string;
  customerEmail: string;
  address: string;
  pincode: string;
  paymentStatus: string;
  razorpayOrderId: string;
  razorpayPaymentId: string;
  seen: boolean;
  /** The shipment's AWB, tracking page and Shiprocket status (e.g. 'IN TRANSIT', 'RTO INITIATED'); null until shipped. */
  shiprocketAWB: string | null;
  shiprocketTrackingUrl: string | null;
  shiprocketStatus: string | null;
  /**
   * Why the shipping provider refused to make its shipment (its words, e.g. 'The billing pincode must be 6
   * digits.'), so the admin can act; null when nothing is refused (a shipment made since clears it).
   */
  shipmentProblem: string | null;
  /** Cancelled: why and when (null otherwise). */
  cancelReason: string | null;
  cancelledAt: string | null;
  /** The refund of a cancelled order: its amount (rupees), the provider's reference once taken, its status. */
  refund: { amount: number; reference: string | null; status: 'Pending' | 'Refunded' } | null;
  /** Whether its shopper may still cancel it (My Orders' button). */
  canCancel: boolean;
  /** The shopper's account (name and e-mail as given at checkout), or null for a guest order. */
  User: { id: string; name: string; email: string } | null;
}

interface Row {
  order_number: string;
  user_id: string | null;
  razorpay_order_id: string;
  razorpay_payment_id: string;
  customer_name: string;
  customer_email: string;
  customer_phone: string;
  address: string;
  pincode: string;
  items: OrderLine[];
  subtotal_paise: bigint;
  coupon_code: string | null;
  discount_paise: bigint;
  shipping_charge_paise: bigint;
  delivery_charge_paise: bigint;
  total_paise: bigint;
  payment_status: string;
  delivery_status: string;
  seen: boolean;
  created_at: Date;
  shiprocket_awb: string | null;
  shiprocket_tracking_url: string | null;
  shiprocket_status: string | null;
  cancel_reason: string | null;
  cancelled_at: Date | null;
  refund_status: 'Pending' | 'Refunded' | null;
  refund_amount_paise: bigint | null;
  refund_id: string | null;
  shipment_refused_reason: string | null;
}

/** Every column but updated_at (the views do not show it). */
const COLUMNS = ORDER_COLUMNS.filter((c) => c !== 'updated_at');
const SELECT = `SELECT ${COLUMNS.join(', ')} FROM orders.orders`;

export function toOrderView(r: Row): OrderView {
  return {
    id: r.order_number,
    orderNumber: r.order_number,
    items: r.items.map((l) => ({
      Product: { id: l.productId, name: l.name, price: paiseToRupees(l.unitPricePaise), image: l.image },
      orderedQuantity: l.quantity,
      size: l.size,
      color: l.color,
      totalAmount: paiseToRupees(l.lineTotalPaise),
      deliveryStatus: r.delivery_status,
      address: r.address,
      customerName: r.customer_name,
      customerPhone: r.customer_phone,
      customerEmail: r.customer_email,
      shiprocketAWB: r.shiprocket_awb,
      shiprocketTrackingUrl: r.shiprocket_tracking_url,
      shiprocketStatus: r.shiprocket_status,
    })),
    createdAt: r.created_at.toISOString(),
    deliveryStatus: r.delivery_status,
    totalAmount: paiseToRupees(r.total_paise),
    subtotal: paiseToRupees(r.subtotal_paise),
    discountAmount: paiseToRupees(r.discount_paise),
    couponCode: r.coupon_code,
    shippingCharge: paiseToRupees(r.shipping_charge_paise),
    deliveryCharge: paiseToRupees(r.delivery_charge_paise),
    customerName: r.customer_name,
    customerPhone: r.customer_phone,
    customerEmail: r.customer_email,
    address: r.address,
    pincode: r.pincode,
    paymentStatus: r.payment_status,
    razorpayOrderId: r.razorpay_order_id,
    razorpayPaymentId: r.razorpay_payment_id,
    seen: r.seen,
    shiprocketAWB: r.shiprocket_awb,
    shiprocketTrackingUrl: r.shiprocket_tracking_url,
    shiprocketStatus: r.shiprocket_status,
    shipmentProblem: r.shipment_refused_reason,
    cancelReason: r.cancel_reason,
    cancelledAt: r.cancelled_at?.toISOString() ?? null,
    refund:
      r.refund_status === null
        ? null
        : { amount: paiseToRupees(r.refund_amount_paise ?? 0n), reference: r.refund_id, status: r.refund_status },
    canCancel: canShopperCancel({
      deliveryStatus: r.delivery_status,
      cancelled: r.cancelled_at !== null,
      shippingStatus: r.shiprocket_status,
    }),
    User: r.user_id ? { id: r.user_id, name: r.customer_name, email: r.customer_email } : null,
  };
}

/** Which orders a list shows: one shopper's own, or every order (the admin list). */
export interface OrderListFilter {
  userId?: string;
}

/** An order list's query, composed from its filter; newest first (indexes orders_by_user, orders_newest). */
export function orderListQuery(filter: OrderListFilter): Query {
  const q = sql.from('orders.orders').select(COLUMNS);
  if (filter.userId !== undefined) q.where('user_id', filter.userId);
  return q.orderBy([
    { column: 'created_at', order: 'desc' },
    { column: 'order_number', order: 'desc' },
  ]);
}

export async function listOrders(db: pg.Pool, filter: OrderListFilter): Promise<OrderView[]> {
  return (await queryRows<Row>(db, orderListQuery(filter))).map(toOrderView);
}

/** A shopper's own orders, newest first. */
export const listOrdersOfUser = (db: pg.Pool, userId: string): Promise<OrderView[]> => listOrders(db, { userId });

/** Every order on the admin list, newest first. */
export const listAllOrders = (db: pg.Pool): Promise<OrderView[]> => listOrders(db, {});

export async function findOrder(db: pg.Pool, orderNumber: string): Promise<OrderView | null> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE order_number = $1`, [orderNumber]);
  return rows[0] ? toOrderView(rows[0]) : null;
}

/** The listed orders among these numbers (deleted ones are absent), by order number. */
export async function findOrders(db: pg.Pool, orderNumbers: readonly string[]): Promise<Map<string, OrderView>> {
  if (orderNumbers.length === 0) return new Map();
  const { rows } = await db.query<Row>(`${SELECT} WHERE order_number = ANY($1::text[])`, [orderNumbers]);
  return new Map(rows.map((r) => [r.order_number, toOrderView(r)]));
}
