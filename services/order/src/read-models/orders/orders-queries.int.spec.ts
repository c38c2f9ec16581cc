import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import { listAllOrders, listOrders, listOrdersOfUser } from './orders-queries.ts';

let db: TestDatabase;
// ORD-2 and ORD-3 were placed at the same moment: ties go by order number, highest first
const orders = [
  { number: 'ORD-1', user: 'u1', at: '2026-02-01T10:00:00Z' },
  { number: 'ORD-2', user: null, at: '2026-02-02T10:00:00Z' },
  { number: 'ORD-3', user: 'u1', at: '2026-02-02T10:00:00Z' },
  { number: 'ORD-4', user: 'u2', at: '2026-02-03T10:00:00Z' },
];

beforeAll(async () => {
  db = await createTestDatabase();
  for (const o of orders)
    await db.pool.query(
      `INSERT INTO orders.orders (order_number, user_id, razorpay_order_id, razorpay_payment_id, customer_name,
         customer_email, customer_phone, address, pincode, items, subtotal_paise, discount_paise,
         shipping_charge_paise, delivery_charge_paise, total_paise, payment_status, delivery_status, created_at,
         updated_at)
       VALUES ($1, $2, 'order_' || $1, 'pay_' || $1, 'Asha', 'asha@example.in', '9876543210', 'MG Road', '560001',
         '[]', 149950, 0, 0, 0, 149950, 'paid', 'Order Placed', $3, $3)`,
      [o.number, o.user, o.at],
    );
});
afterAll(() => db?.drop());

describe('the order list queries', () => {
  it('the admin list: every order, newest first, ties by order number', async () => {
    const all = await listAllOrders(db.pool);
    expect(all.map((o) => o.orderNumber)).toEqual(['ORD-4', 'ORD-3', 'ORD-2', 'ORD-1']);
    expect(all.find((o) => o.orderNumber === 'ORD-2')).toMatchObject({ User: null, totalAmount: 1499.5 });
  });

  it("a shopper's own orders only, in the same order", async () => {
    expect((await listOrdersOfUser(db.pool, 'u1')).map((o) => o.orderNumber)).toEqual(['ORD-3', 'ORD-1']);
    expect((await listOrders(db.pool, { userId: 'u2' })).map((o) => o.User?.id)).toEqual(['u2']);
    expect(await listOrdersOfUser(db.pool, 'nobody')).toEqual([]);
  });
});
