import { queryRows, sql, type Query } from '@shop/shared/db/query-builder';
import { paiseToRupees } from '@shop/shared/money/money';
import type pg from 'pg';
import type { OrderLine } from '@shop/shared/contracts/payment-events';
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
  shiprocketAWB: null;
  shiprocketTrackingUrl: null;
  shiprocketStatus: null;
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
  // No shipping integration yet: the fields are there for the clients, always null.
  shiprocketAWB: null;
  shiprocketTrackingUrl: null;
  shiprocketStatus: null;
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
      shiprocketAWB: null,
      shiprocketTrackingUrl: null,
      shiprocketStatus: null,
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
    shiprocketAWB: null,
    shiprocketTrackingUrl: null,
    shiprocketStatus: null,
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
