import { describe, expect, it } from 'vitest';
import { sandboxPay } from '@shop/razorpay-sandbox';
import { createProduct } from '@shop/test-support/fixtures';
import { testShopForTests } from '@shop/test-support/file-shop';
import { fromBuyer, guestOrder } from '@shop/test-support/purchase';

// Issue 22 item 4: verify hands the buyer the token of their order's confirmation link, and only after the
// payment's signature checked out; the token reads that order through POST /api/orders/confirmation, signed in or not.

const running = testShopForTests();

interface VerifyAnswer {
  success: boolean;
  orderNumber: string | null;
  orderToken?: string;
  message?: string;
}

/** A guest's paid checkout (create-order, the sandbox's Pay) as buyer `n`: the payment the browser holds. */
async function paidCheckout(n: number, productId: string) {
  const { shop } = running;
  const created = await shop.api<{ id: string }>('POST', '/api/payment/create-order', {
    headers: fromBuyer(n),
    body: guestOrder(`rcpt_link_${n}`, n, [{ productId, quantity: 1 }]),
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return sandboxPay(`${shop.url}/razorpay-sandbox`, created.body.id);
}

const verify = (n: number, body: unknown) =>
  running.shop.api<VerifyAnswer>('POST', '/api/payment/verify', { headers: fromBuyer(n), body });

const confirmation = (token: string) =>
  running.shop.api<{ orderNumber: string; customerEmail: string; message?: string }>(
    'POST',
    '/api/orders/confirmation',
    { body: { token } },
  );

describe('the confirmation link from verify', () => {
  it("answers the token with the order number; the token reads that order and no other buyer's", async () => {
    const { shop, admin } = running;
    const productId = await createProduct(shop.api, admin, { name: 'Link Kurta', price: '999', quantity: '10' });

    const first = await paidCheckout(701, productId);
    // A forged signature gets no token, only the refusal.
    const forged = await verify(701, { ...first, razorpay_signature: 'f'.repeat(64) });
    expect(forged.status).toBe(400);
    expect(forged.body).not.toHaveProperty('orderToken');

    const answer = await verify(701, first);
    expect(answer.status).toBe(200);
    expect(answer.body.orderNumber).toMatch(/^ORD-/);
    expect(answer.body.orderToken).toMatch(new RegExp(`^${first.razorpay_order_id}\\.[A-Za-z0-9_-]{43}$`));

    const second = await paidCheckout(702, productId);
    const other = await verify(702, second);
    expect(other.body.orderToken).not.toBe(answer.body.orderToken);

    const mine = await confirmation(answer.body.orderToken!);
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ orderNumber: answer.body.orderNumber, customerEmail: 'buyer701@example.in' });
    expect(JSON.stringify(mine.body)).not.toContain('buyer702@example.in');
    expect((await confirmation(other.body.orderToken!)).body.orderNumber).toBe(other.body.orderNumber);
  });
});
