import { expect } from 'vitest';
import { httpClient } from '@shop/test-support/http';
import { waitUntil } from '@shop/test-support/wait-until';
import { openEventStream } from '../../../services/order/src/testing/sse-client.ts';
import { sandboxPay } from '../../../services/razorpay-sandbox/src/sandbox-pay.ts';

/** A message of the mail sandbox, as GET /api/mail/messages lists it. */
export interface SandboxMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  sentAt: string;
}

type OwnOrder = {
  orderNumber: string;
  deliveryStatus: string;
  shiprocketAWB: string | null;
  shiprocketTrackingUrl: string | null;
  shiprocketStatus: string | null;
};

/**
 * Issue 26's after-sale journey, through the documented REST paths of a running shop (either run mode) with the
 * built-in sandboxes standing in for Razorpay, Shiprocket and SMTP: a shopper buys; the order-placed e-mail
 * reaches the mail sandbox with the order number; the order gets a shipment with an AWB (and its shipped e-mail
 * with the tracking link); the courier's tracking webhooks (the Shiprocket sandbox moving the parcel along) move
 * it to Out for Delivery, then Delivered, each pushed live on the shopper's own order stream (the one their open
 * My Orders and confirmation pages follow) and each with its e-mail. Answers the order number and what it saw.
 */
export async function afterSaleJourney(
  base: string,
  admin: { email: string; password: string },
): Promise<{ orderNumber: string; awb: string; mails: SandboxMail[] }> {
  const api = httpClient(base);
  const adminToken = (await api<{ token: string }>('POST', '/api/auth/login', { body: admin })).body.token;
  const email = `after-sale-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.in`;
  const registered = await api<{ token: string }>('POST', '/api/auth/register', {
    body: { name: 'Lakshmi Menon', email, phone: '+919845012345', password: 'lakshmi123' },
  });
  expect(registered.status).toBe(201);
  const token = registered.body.token;

  const products = await api<Array<{ id: string; quantity: number; sizeQuantities: Record<string, number> }>>(
    'GET',
    '/api/products',
  );
  const product = products.body.find((p) => p.quantity > 0)!;
  const size = Object.entries(product.sizeQuantities).find(([, n]) => n > 0)?.[0] ?? null;
  const orderData = {
    address: '21 Marine Drive, Kochi, Kerala',
    pincode: '682031',
    customerName: 'Lakshmi Menon',
    customerPhone: '+919845012345',
    customerEmail: email,
    items: [{ productId: product.id, quantity: 1, size, color: null }],
    couponCode: null,
  };

  // The shopper's own push stream, open before the purchase, as their My Orders page holds it.
  const stream = await openEventStream(`${base}/api/orders/stream`, { token });
  expect(stream.status).toBe(200);
  await stream.waitFor((e) => e.event === 'ready', 'the stream ready');
  try {
    const created = await api<{ id: string }>('POST', '/api/payment/create-order', {
      token,
      body: { amount: 1, currency: 'INR', receipt: `rcpt_${Date.now()}`, orderData },
    });
    expect(created.status).toBe(201);
    const paid = await sandboxPay(`${base}/razorpay-sandbox`, created.body.id);
    const verified = await api<{ orderNumber: string }>('POST', '/api/payment/verify', {
      token,
      body: { ...paid, orderData },
    });
    expect(verified.status).toBe(200);
    const { orderNumber } = verified.body;
    expect(orderNumber).toMatch(/^ORD-\d+$/);

    const mailsTo = async () =>
      (
        await api<{ sandbox: boolean; messages: SandboxMail[] }>('GET', '/api/mail/messages', { token: adminToken })
      ).body.messages.filter((m) => m.to.includes(email));
    const mailAbout = (subject: string) =>
      waitUntil(async () => (await mailsTo()).find((m) => m.subject === subject), `the mail "${subject}"`, 30_000);

    // Order placed: the e-mail with the number, the item's total and a link to the order page.
    const placedMail = await mailAbout(`Your order ${orderNumber} is placed`);
    expect(placedMail.text).toContain(orderNumber);
    expect(placedMail.text).toContain('₹');
    expect(placedMail.html).toContain(orderNumber);

    // The shipment: an AWB from the Shiprocket sandbox, pushed to the shopper, and the shipped e-mail with its link.
    const shipped = await stream.waitFor(
      (e) =>
        e.event === 'order' &&
        e.json<OwnOrder>().orderNumber === orderNumber &&
        Boolean(e.json<OwnOrder>().shiprocketAWB),
      'the shipment on the shopper stream',
    );
    const { shiprocketAWB: awb, shiprocketTrackingUrl } = shipped.json<OwnOrder>();
    expect(shiprocketTrackingUrl).toBeTruthy();
    const shippedMail = await mailAbout(`Your order ${orderNumber} has shipped`);
    expect(shippedMail.text).toContain(shiprocketTrackingUrl!);

    // The courier's tracking webhooks move it on: each status reaches the open stream, and each has its e-mail.
    for (const [status, deliveryStatus, subject] of [
      ['OUT FOR DELIVERY', 'Out for Delivery', `Your order ${orderNumber} is out for delivery`],
      ['DELIVERED', 'Delivered', `Your order ${orderNumber} is delivered`],
    ] as const) {
      const moved = await api('POST', `/shiprocket-sandbox/sandbox/shipments/${awb}/advance`, { body: { status } });
      expect(moved.status).toBe(200);
      const pushed = await stream.waitFor(
        (e) =>
          e.event === 'order' &&
          e.json<OwnOrder>().orderNumber === orderNumber &&
          e.json<OwnOrder>().deliveryStatus === deliveryStatus,
        `${deliveryStatus} on the shopper stream`,
      );
      expect(pushed.json<OwnOrder>().shiprocketStatus).toBe(status);
      await mailAbout(subject);
    }

    // Each mail once: four kinds, one each, however often the events were delivered to the reactor.
    const mails = await mailsTo();
    expect(mails.map((m) => m.subject).sort()).toEqual(
      [
        `Your order ${orderNumber} has shipped`,
        `Your order ${orderNumber} is delivered`,
        `Your order ${orderNumber} is out for delivery`,
        `Your order ${orderNumber} is placed`,
      ].sort(),
    );
    return { orderNumber, awb: awb!, mails };
  } finally {
    stream.close();
  }
}
