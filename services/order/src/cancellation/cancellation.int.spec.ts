import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenPercentCoupon } from '@shop/test-support/fixtures';
import { startTestShop, type TestShop } from '@shop/test-support/test-shop';
import { waitUntil } from '@shop/test-support/wait-until';
import { buyAs, createProduct, registerShopper, type Shopper } from '../../../../tests/security/shoppers.ts';
import type { OrderView } from '../read-models/orders/orders-queries.ts';

/**
 * Issue 26, part 4: cancelling a placed order, by its shopper or an admin, through the whole shop (sandbox
 * payments). Either way the order shows Cancelled, its stock and coupon use go back, and its payment is
 * refunded once through the provider, the refund shown on the order. A cancel racing a Delivered status
 * change is decided on the order's stream: one wins, the other is answered 409.
 */
let shop: TestShop;
let admin: string;
let asha: Shopper;
let ravi: Shopper;
const STOCK = 40;

beforeAll(async () => {
  shop = await startTestShop();
  admin = await shop.login();
  asha = await registerShopper(shop, 'Asha Rao', 'asha@example.in');
  ravi = await registerShopper(shop, 'Ravi Kumar', 'ravi@example.in');
});
afterAll(async () => {
  await shop?.stop();
});

const cancelAsShopper = (who: Shopper, orderNumber: string) =>
  shop.api<OrderView & { message: string }>('POST', `/api/orders/${orderNumber}/cancel`, {
    token: who.token,
    headers: who.from,
  });
const BY_PHONE = { reason: 'Customer asked by phone' };
const cancelAsAdmin = (orderNumber: string, body: unknown) =>
  shop.api<OrderView & { message: string }>('PATCH', `/api/orders/admin/${orderNumber}/cancel`, {
    token: admin,
    body,
  });
const setStatus = (orderNumber: string, deliveryStatus: string) =>
  shop.api<OrderView & { message: string }>('PATCH', `/api/orders/admin/${orderNumber}/status`, {
    token: admin,
    body: { deliveryStatus },
  });
const adminOrder = async (orderNumber: string) =>
  (await shop.api<OrderView[]>('GET', '/api/orders/admin/all', { token: admin })).body.find(
    (o) => o.orderNumber === orderNumber,
  );
const unitsOnSale = async (productId: string) =>
  (await shop.api<{ quantity: number }>('GET', `/api/products/${productId}`)).body.quantity;
/** The refunds the provider (the sandbox) made of a payment. */
const providerRefunds = async (paymentId: string) =>
  (
    await shop.db.pool.query<{ id: string; amount: string }>(
      'SELECT id, amount FROM razorpay_sandbox.refunds WHERE payment_id = $1',
      [paymentId],
    )
  ).rows;
/** The product's stock balances: what is on sale is what was stocked less the orders still standing. */
const expectStock = async (productId: string, standing: number) =>
  waitUntil(async () => (await unitsOnSale(productId)) === STOCK - standing, `${STOCK - standing} units on sale`);
/** The order shows its refund taken by the provider, once: paymentStatus Refunded, the refund's reference. */
async function expectRefundedOnce(orderNumber: string, paymentId: string, totalAmount: number) {
  await waitUntil(async () => (await adminOrder(orderNumber))?.paymentStatus === 'Refunded', 'the refund on the order');
  const refunds = await providerRefunds(paymentId);
  expect(refunds).toHaveLength(1);
  expect(Number(refunds[0]!.amount)).toBe(Math.round(totalAmount * 100));
  const order = await adminOrder(orderNumber);
  expect(order).toMatchObject({
    deliveryStatus: 'Cancelled',
    paymentStatus: 'Refunded',
    refund: { amount: totalAmount, reference: refunds[0]!.id, status: 'Refunded' },
    canCancel: false,
  });
  const mine = await shop.api<OrderView[]>('GET', '/api/orders', { token: asha.token });
  const own = mine.body.find((o) => o.orderNumber === orderNumber);
  if (own) expect(own.refund).toEqual(order!.refund);
}

describe('cancelling an order', () => {
  it('by the shopper while Processing: Cancelled at once, stock back, refunded once and shown on the order', async () => {
    const productId = await createProduct(shop, admin, 'Cancel Kurta', STOCK);
    const bought = await buyAs(shop, asha, productId);
    await expectStock(productId, 1);
    const before = (await adminOrder(bought.orderNumber))!;
    expect(before).toMatchObject({ deliveryStatus: 'Processing', canCancel: true, refund: null });

    // someone else's order is not found, and stays as it was
    expect((await cancelAsShopper(ravi, bought.orderNumber)).status).toBe(404);
    expect((await adminOrder(bought.orderNumber))?.deliveryStatus).toBe('Processing');

    const r = await cancelAsShopper(asha, bought.orderNumber);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      message: 'Order cancelled',
      deliveryStatus: 'Cancelled',
      cancelReason: 'Cancelled by the customer',
      refund: { amount: before.totalAmount },
      canCancel: false,
    });
    await expectStock(productId, 0);
    await expectRefundedOnce(bought.orderNumber, bought.payment.razorpay_payment_id, before.totalAmount);

    // once only; the admin's refunds list names why
    expect(await cancelAsShopper(asha, bought.orderNumber)).toMatchObject({
      status: 409,
      body: { message: 'This order has already been cancelled' },
    });
    const refunds = await shop.api<Array<{ razorpayPaymentId: string; reason: string; status: string }>>(
      'GET',
      '/api/payment/admin/refunds',
      { token: admin },
    );
    expect(refunds.body.find((x) => x.razorpayPaymentId === bought.payment.razorpay_payment_id)).toMatchObject({
      reason: 'order_cancelled',
      status: 'refunded',
    });
    await expectStock(productId, 0);
  });

  it('the shopper cannot cancel once it is out for delivery; 401 without signing in', async () => {
    const productId = await createProduct(shop, admin, 'Shipped Kurta', STOCK);
    const bought = await buyAs(shop, asha, productId);
    expect((await setStatus(bought.orderNumber, 'Out for Delivery')).status).toBe(200);
    expect(await cancelAsShopper(asha, bought.orderNumber)).toMatchObject({
      status: 409,
      body: { message: expect.stringContaining('can no longer be cancelled') },
    });
    expect((await shop.api('POST', `/api/orders/${bought.orderNumber}/cancel`)).status).toBe(401);
    expect((await adminOrder(bought.orderNumber))?.deliveryStatus).toBe('Out for Delivery');
    await expectStock(productId, 1);
  });

  it('by an admin, with a reason, any order not delivered: stock back, refunded once', async () => {
    const productId = await createProduct(shop, admin, 'Admin Cancel Kurta', STOCK);
    const shipped = await buyAs(shop, asha, productId);
    const delivered = await buyAs(shop, asha, productId);
    expect((await setStatus(shipped.orderNumber, 'Out for Delivery')).status).toBe(200);
    expect((await setStatus(delivered.orderNumber, 'Delivered')).status).toBe(200);
    await expectStock(productId, 2);

    for (const body of [{}, { reason: '   ' }, undefined])
      expect(await cancelAsAdmin(shipped.orderNumber, body)).toMatchObject({
        status: 400,
        body: { message: 'A reason is required to cancel an order' },
      });
    expect(
      (
        await shop.api('PATCH', `/api/orders/admin/${shipped.orderNumber}/cancel`, {
          token: asha.token,
          body: { reason: 'x' },
        })
      ).status,
    ).toBe(403);
    expect(await cancelAsAdmin(delivered.orderNumber, BY_PHONE)).toMatchObject({
      status: 409,
      body: { message: 'This order has been delivered and can no longer be cancelled' },
    });

    const stats = async () =>
      (await shop.api<{ totalRevenue: number }>('GET', '/api/orders/admin/stats', { token: admin })).body;
    const revenueBefore = (await stats()).totalRevenue;
    const r = await cancelAsAdmin(shipped.orderNumber, { reason: 'Parcel damaged in the warehouse' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ deliveryStatus: 'Cancelled', cancelReason: 'Parcel damaged in the warehouse' });
    // a cancelled order's status is not changed by the dropdown any more
    expect(await setStatus(shipped.orderNumber, 'Delivered')).toMatchObject({
      status: 409,
      body: { message: 'This order has been cancelled' },
    });
    await expectStock(productId, 1);
    await expectRefundedOnce(shipped.orderNumber, shipped.payment.razorpay_payment_id, r.body.totalAmount);
    expect(await providerRefunds(delivered.payment.razorpay_payment_id)).toEqual([]);
    // The dashboard's revenue is what the shop keeps: the refund comes off it.
    expect((await stats()).totalRevenue).toBeCloseTo(revenueBefore - r.body.totalAmount, 2);
  });

  it('a coupon order: the coupon use is given back and the discounted total refunded', async () => {
    const productId = await createProduct(shop, admin, 'Coupon Kurta', STOCK);
    const coupon = await createTenPercentCoupon(shop.api, admin, { code: 'CANCEL10', usageLimit: 1 });
    expect(coupon.status).toBe(201);
    const used = async () =>
      (await shop.api<Array<{ code: string; usedCount: number }>>('GET', '/api/coupons', { token: admin })).body.find(
        (c) => c.code === 'CANCEL10',
      )!.usedCount;
    const bought = await buyAs(shop, asha, productId, { couponCode: 'CANCEL10' });
    await waitUntil(async () => (await used()) === 1, 'the coupon use counted');
    const order = (await adminOrder(bought.orderNumber))!;
    expect(order.couponCode).toBe('CANCEL10');
    expect(order.discountAmount).toBeGreaterThan(0);

    expect((await cancelAsShopper(asha, bought.orderNumber)).status).toBe(200);
    await waitUntil(async () => (await used()) === 0, 'the coupon use given back');
    await expectStock(productId, 0);
    await expectRefundedOnce(bought.orderNumber, bought.payment.razorpay_payment_id, order.totalAmount);
    // the use given back is usable again (the limit is 1)
    const again = await buyAs(shop, ravi, productId, { couponCode: 'CANCEL10' });
    await waitUntil(async () => (await used()) === 1, 'the coupon used again');
    await expectStock(productId, 1);
    expect((await adminOrder(again.orderNumber))?.couponCode).toBe('CANCEL10');
  });

  it('a cancel racing a Delivered status change: one wins each time, the other gets 409; stock balances', async () => {
    const productId = await createProduct(shop, admin, 'Race Kurta', STOCK);
    const ROUNDS = 8;
    let delivered = 0;
    for (let i = 0; i < ROUNDS; i++) {
      const who = i % 2 === 0 ? asha : ravi;
      const bought = await buyAs(shop, who, productId);
      const [cancel, deliver] = await Promise.all([
        cancelAsAdmin(bought.orderNumber, BY_PHONE),
        setStatus(bought.orderNumber, 'Delivered'),
      ]);
      const statuses = [cancel.status, deliver.status].sort();
      expect(statuses, JSON.stringify([cancel.body, deliver.body])).toEqual([200, 409]);
      const final = (await adminOrder(bought.orderNumber))!;
      if (cancel.status === 200) {
        expect(deliver.body).toMatchObject({ message: 'This order has been cancelled' });
        expect(final.deliveryStatus).toBe('Cancelled');
        await expectRefundedOnce(bought.orderNumber, bought.payment.razorpay_payment_id, final.totalAmount);
      } else {
        delivered++;
        expect(cancel.body).toMatchObject({ message: 'This order has been delivered and can no longer be cancelled' });
        expect(final.deliveryStatus).toBe('Delivered');
        expect(await providerRefunds(bought.payment.razorpay_payment_id)).toEqual([]);
      }
      await expectStock(productId, delivered);
    }
    console.info(`race: ${delivered} of ${ROUNDS} delivered, ${ROUNDS - delivered} cancelled`);
  });

  it("a cancel racing the courier's Delivered webhook: the order's log decides; cancelled means refunded and never Delivered", async () => {
    const productId = await createProduct(shop, admin, 'Webhook Race Kurta', STOCK);
    const ROUNDS = 6;
    let delivered = 0;
    for (let i = 0; i < ROUNDS; i++) {
      const bought = await buyAs(shop, i % 2 === 0 ? asha : ravi, productId);
      // The built-in Shiprocket sandbox ships every order; its advance call sends the signed tracking webhook.
      const awb = await waitUntil(
        async () => (await adminOrder(bought.orderNumber))?.shiprocketAWB,
        `the shipment of ${bought.orderNumber}`,
      );
      const [cancel, webhook] = await Promise.all([
        cancelAsAdmin(bought.orderNumber, BY_PHONE),
        shop.api('POST', `/shiprocket-sandbox/sandbox/shipments/${awb}/advance`, { body: { status: 'DELIVERED' } }),
      ]);
      // Shiprocket is always answered 200; the admin either cancelled first, or was refused because it was delivered.
      expect(webhook.status).toBe(200);
      await waitUntil(
        async () => (await adminOrder(bought.orderNumber))?.shiprocketStatus === 'DELIVERED',
        'the webhook recorded',
      );
      const final = (await adminOrder(bought.orderNumber))!;
      if (cancel.status === 200) {
        expect(final.deliveryStatus).toBe('Cancelled');
        await expectRefundedOnce(bought.orderNumber, bought.payment.razorpay_payment_id, final.totalAmount);
      } else {
        delivered++;
        expect(cancel.status).toBe(409);
        expect(cancel.body).toMatchObject({ message: 'This order has been delivered and can no longer be cancelled' });
        expect(final.deliveryStatus).toBe('Delivered');
        expect(await providerRefunds(bought.payment.razorpay_payment_id)).toEqual([]);
      }
      await expectStock(productId, delivered);
    }
    console.info(`webhook race: ${delivered} of ${ROUNDS} delivered, ${ROUNDS - delivered} cancelled`);
  });
});
