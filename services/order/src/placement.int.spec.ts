import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyEvent } from '@shop/shared/bus/apply-event';
import { inTransaction } from '@shop/shared/bus/transaction';
import { paymentStreamId } from '@shop/shared/contracts/payment-events';
import type { RecordedEvent } from '@shop/shared/eventstore/types';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import { waitUntil } from '@shop/test-support/wait-until';
import { findOrderNumberByPayment, inProcessOrderPlacement, waitForOrderOfPayment } from './index.ts';
import type { OrderView } from './read-models/orders/orders-queries.ts';
import { startOrderTestHost, type OrderTestHost } from './testing/order-test-host.ts';
import { paymentVerifiedData, recordVerifiedPayment } from './testing/payments.ts';

let db: TestDatabase;
let host: OrderTestHost;
let admin: string;
let asha: { userId: string; token: string };

beforeAll(async () => {
  db = await createTestDatabase({ migrate: false });
  host = await startOrderTestHost({ databaseUrl: db.url });
  admin = await host.login();
  asha = await host.register('Asha Rao', 'asha@example.in');
});
afterAll(async () => {
  await host?.close();
  await db?.drop();
});

const checkout = () => host.ctx.eventStore('checkout');
const ordersOf = (token: string) => host.api<OrderView[]>('GET', '/api/orders', { token });
const adminList = () => host.api<OrderView[]>('GET', '/api/orders/admin/all', { token: admin });
// Order streams only: the log also holds each order's mails (`mails-<orderNumber>`).
const orderCount = async () =>
  (
    await db.pool.query<{ n: number }>(
      `SELECT count(DISTINCT stream_id)::int AS n FROM orders.events WHERE type = 'OrderPlaced'`,
    )
  ).rows[0]!.n;

/** Waits until the placement has handled the payment and the orders list shows its order. */
const placed = async (payment: RecordedEvent, razorpayOrderId: string) => {
  const orderNumber = await waitForOrderOfPayment(
    host.ctx,
    { razorpayOrderId, paymentStreamId: payment.streamId, paymentStreamVersion: payment.streamVersion },
    10_000,
  );
  if (!orderNumber) throw new Error(`no order for ${razorpayOrderId}`);
  return orderNumber;
};

describe('order placement from PaymentVerified', () => {
  it("places the order: it shows in the buyer's /api/orders and in the admin list, in rupees, as paid and processing", async () => {
    const data = paymentVerifiedData({ userId: asha.userId });
    const payment = await recordVerifiedPayment(checkout(), data);
    const orderNumber = await placed(payment, data.razorpayOrderId);
    expect(orderNumber).toMatch(/^ORD-1\d{5}$/);

    const mine = await ordersOf(asha.token);
    expect(mine.status).toBe(200);
    expect(mine.body).toHaveLength(1);
    expect(mine.body[0]).toEqual({
      id: orderNumber,
      orderNumber,
      items: [
        {
          Product: { id: 'p-kurta', name: 'Linen Kurta', price: 1499.5, image: '/uploads/kurta.png' },
          orderedQuantity: 2,
          size: 'M',
          color: 'White',
          totalAmount: 2999,
          deliveryStatus: 'Processing',
          address: '12 MG Road, Bengaluru, Karnataka',
          customerName: 'Asha Rao',
          customerPhone: '+919812345678',
          customerEmail: 'asha@example.in',
          shiprocketAWB: null,
          shiprocketTrackingUrl: null,
          shiprocketStatus: null,
        },
      ],
      createdAt: '2026-11-22T10:15:00.000Z',
      deliveryStatus: 'Processing',
      totalAmount: 2749.1,
      subtotal: 2999,
      discountAmount: 299.9,
      couponCode: 'DIWALI10',
      shippingCharge: 0,
      deliveryCharge: 50,
      customerName: 'Asha Rao',
      customerPhone: '+919812345678',
      customerEmail: 'asha@example.in',
      address: '12 MG Road, Bengaluru, Karnataka',
      pincode: '560001',
      paymentStatus: 'Paid',
      razorpayOrderId: data.razorpayOrderId,
      razorpayPaymentId: data.razorpayPaymentId,
      seen: false,
      shiprocketAWB: null,
      shiprocketTrackingUrl: null,
      shiprocketStatus: null,
      shipmentProblem: null,
      cancelReason: null,
      cancelledAt: null,
      refund: null,
      canCancel: true,
      User: { id: asha.userId, name: 'Asha Rao', email: 'asha@example.in' },
    });
    expect((await adminList()).body.map((o) => o.orderNumber)).toContain(orderNumber);
    expect(await findOrderNumberByPayment(db.pool, data.razorpayOrderId)).toBe(orderNumber);
    // The order's history reads back from its own stream, caused by the payment event.
    const history = await host.ctx.eventStore('orders').readStream(`order-${orderNumber}`);
    expect(history.map((e) => e.type)).toEqual(['OrderPlaced']);
    expect(history[0]!.metadata.causationId).toBe(payment.eventId);
  });

  it('places the order under the number checkout recorded with the payment, taken from the one sequence; once, even run again by hand', async () => {
    const port = inProcessOrderPlacement(host.ctx);
    const [recorded, next] = await port.allocateOrderNumbers(2);
    expect(recorded).toMatch(/^ORD-1\d{5}$/);
    expect(Number(next!.slice(4))).toBeGreaterThan(Number(recorded!.slice(4)));
    const data = paymentVerifiedData({ userId: asha.userId, orderNumber: recorded });
    const payment = await recordVerifiedPayment(checkout(), data);
    expect(await placed(payment, data.razorpayOrderId)).toBe(recorded);
    const [order] = (await ordersOf(asha.token)).body.filter((o) => o.razorpayOrderId === data.razorpayOrderId);
    expect(order?.orderNumber).toBe(recorded);
    const before = await orderCount();
    await inTransaction(db.pool, (tx) => host.order.placement.handle(payment, tx));
    expect(await orderCount()).toBe(before);
    // A payment recorded without a number is numbered from the same sequence: never one handed out before.
    const bare = paymentVerifiedData({ userId: asha.userId });
    const numbered = await placed(await recordVerifiedPayment(checkout(), bare), bare.razorpayOrderId);
    expect(Number(numbered.slice(4))).toBeGreaterThan(Number(next!.slice(4)));
  });

  it('a second PaymentVerified for the same provider order places no second order', async () => {
    const data = paymentVerifiedData({ userId: asha.userId });
    const first = await recordVerifiedPayment(checkout(), data);
    const orderNumber = await placed(first, data.razorpayOrderId);
    const before = await orderCount();
    // e.g. the webhook and the browser's verify both got through on the checkout side
    const [again] = (
      await checkout().append(paymentStreamId(data.razorpayOrderId), first.streamVersion, [
        { type: 'PaymentVerified', data: { ...data, via: 'webhook' } },
      ])
    ).events;
    expect(
      await waitForOrderOfPayment(host.ctx, {
        razorpayOrderId: data.razorpayOrderId,
        paymentStreamId: again!.streamId,
        paymentStreamVersion: again!.streamVersion,
      }),
    ).toBe(orderNumber);
    expect(await orderCount()).toBe(before);
    expect((await ordersOf(asha.token)).body.filter((o) => o.razorpayOrderId === data.razorpayOrderId)).toHaveLength(1);
  });

  it('a redelivered PaymentVerified is skipped, and even a handler run without the dedupe places nothing twice', async () => {
    const data = paymentVerifiedData({ userId: asha.userId });
    const payment = await recordVerifiedPayment(checkout(), data);
    await placed(payment, data.razorpayOrderId);
    const before = await orderCount();
    // What a Kafka redelivery after a crash before the offset commit amounts to.
    expect(await inTransaction(db.pool, (tx) => applyEvent(tx, host.order.placement, payment))).toEqual({
      outcome: 'duplicate',
    });
    await inTransaction(db.pool, (tx) => host.order.placement.handle(payment, tx));
    expect(await orderCount()).toBe(before);
  });

  it('20 concurrent deliveries of one payment (bypassing the dedupe claim) make exactly one order', async () => {
    const data = paymentVerifiedData({ userId: asha.userId });
    // Not in the log: only these racing handlers see it.
    const event: RecordedEvent = {
      globalPosition: 0n,
      transactionId: 0n,
      streamId: paymentStreamId(data.razorpayOrderId),
      streamVersion: 2,
      eventId: randomUUID(),
      type: 'PaymentVerified',
      schemaVersion: 1,
      data,
      metadata: { occurredAt: data.verifiedAt },
      source: 'checkout',
    };
    const before = await orderCount();
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => inTransaction(db.pool, (tx) => host.order.placement.handle(event, tx))),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(await orderCount()).toBe(before + 1);
    const { rows } = await db.pool.query(`SELECT * FROM orders.payment_orders WHERE razorpay_order_id = $1`, [
      data.razorpayOrderId,
    ]);
    expect(rows).toHaveLength(1);
  });

  it('places a guest order (no account) on the admin list only, and numbers orders in sequence', async () => {
    const a = paymentVerifiedData({ customer: { userId: null, name: 'Guest', email: 'g@x.in', phone: '+91' } });
    const b = paymentVerifiedData({ userId: asha.userId });
    const na = await placed(await recordVerifiedPayment(checkout(), a), a.razorpayOrderId);
    const nb = await placed(await recordVerifiedPayment(checkout(), b), b.razorpayOrderId);
    expect(Number(nb.slice(4))).toBeGreaterThan(Number(na.slice(4)));
    const guest = (await adminList()).body.find((o) => o.orderNumber === na);
    expect(guest).toMatchObject({ customerName: 'Guest', User: null });
    expect((await ordersOf(asha.token)).body.map((o) => o.orderNumber)).not.toContain(na);
  });

  it('parks a malformed PaymentVerified for the admins and goes on placing the next orders', async () => {
    const bad = paymentVerifiedData({ userId: asha.userId, lines: [] });
    await recordVerifiedPayment(checkout(), bad);
    const good = paymentVerifiedData({ userId: asha.userId });
    const orderNumber = await placed(await recordVerifiedPayment(checkout(), good), good.razorpayOrderId);
    expect(orderNumber).toBeTruthy();
    const parked = await waitUntil(async () => {
      const { rows } = await db.pool.query<{ stream_id: string; error: string }>(
        `SELECT stream_id, error FROM orders.parked_events WHERE consumer = 'orders.placement'`,
      );
      return rows.length ? rows : null;
    }, 'the bad payment to be parked');
    expect(parked[0]!.stream_id).toBe(paymentStreamId(bad.razorpayOrderId));
    expect(await findOrderNumberByPayment(db.pool, bad.razorpayOrderId)).toBeNull();
  });
});
