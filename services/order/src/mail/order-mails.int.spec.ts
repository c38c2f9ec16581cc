import net from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '@shop/shared/db/pool';
import { listSandboxMail } from '@shop/shared/mail/mail-sandbox';
import { MailDeliveryError } from '@shop/shared/mail/mail-port';
import { OutgoingMail } from '@shop/shared/mail/outgoing-mail';
import { SmtpMailer } from '@shop/shared/mail/smtp-mailer';
import { createLogger } from '@shop/shared/observability/logger';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import { startTestHost, type TestHost } from '@shop/test-support/test-host';
import { waitUntil } from '@shop/test-support/wait-until';
import { createAccountsService } from '@shop/accounts';
import { catalogHistory } from '@shop/catalog';
import { checkoutHistory } from '@shop/checkout';
import { createOrderService, type OrderService } from '../index.ts';
import { orderHistoryPart } from '../history/order-history.ts';
import { orderStreamId } from '../order/events.ts';
import { paymentVerifiedData, placePaidOrder } from '../testing/payments.ts';
import { ORDER_MAILS_CONSUMER } from './order-mail-reactor.ts';

// The order e-mails through the built-in mail sandbox: one per event that calls for one, none again on a
// redelivery or a replay, and a mail a failing SMTP server refused is sent on a later attempt.

let db: TestDatabase;
let host: TestHost<readonly [ReturnType<typeof createAccountsService>, OrderService]>;
let admin: string;

beforeAll(async () => {
  db = await createTestDatabase({ migrate: false });
  host = await startTestHost({
    service: 'order',
    databaseUrl: db.url,
    env: { PUBLIC_URL: 'https://shop.example.in' },
    waitForAdmin: true,
    modules: (ctx) =>
      [
        createAccountsService(ctx),
        createOrderService(ctx, {
          history: { catalog: catalogHistory(ctx.pool), checkout: checkoutHistory(ctx.pool) },
        }),
      ] as const,
  });
  admin = await host.login();
});
afterAll(async () => {
  await host?.stop();
  await db?.drop();
});

const order = () => host.modules[1];
const mailsAbout = async (orderNumber: string) =>
  (await listSandboxMail(host.ctx.pool)).filter((m) => m.subject.includes(orderNumber));
const waitForMails = (orderNumber: string, count: number) =>
  waitUntil(async () => {
    const found = await mailsAbout(orderNumber);
    return found.length >= count ? found : null;
  }, `${count} mail(s) about ${orderNumber}`);
const setStatus = (orderNumber: string, deliveryStatus: string) =>
  host.api('PATCH', `/api/orders/admin/${orderNumber}/status`, { token: admin, body: { deliveryStatus } });

describe('order e-mails', () => {
  it('mails the order placed (items, rupee amounts, address, order page), then out for delivery and delivered', async () => {
    const data = paymentVerifiedData({
      customer: { userId: null, name: 'Asha <b>Rao</b>', email: 'asha@example.in', phone: '+919812345678' },
    });
    const orderNumber = await placePaidOrder(host.ctx, data);

    const [placed] = await waitForMails(orderNumber, 1);
    expect(placed).toMatchObject({ to: 'asha@example.in', subject: `Your order ${orderNumber} is placed` });
    for (const part of [
      'Linen Kurta (Size M, White) x 2: ₹2,999.00',
      'Discount (DIWALI10): -₹299.90',
      'Delivery: ₹50.00',
      'Total: ₹2,749.10',
      '12 MG Road, Bengaluru, Karnataka, 560001',
      'View your order: https://shop.example.in/order-confirmation#',
    ])
      expect(placed!.text).toContain(part);
    // The shopper's own text is escaped in the HTML body.
    expect(placed!.html).toContain('Hello Asha &lt;b&gt;Rao&lt;/b&gt;,');
    expect(placed!.html).not.toContain('<b>Rao</b>');
    expect(placed!.html).toContain('₹2,749.10');

    // The link opens the order's confirmation page: its token is the one the page reads.
    const token = decodeURIComponent(/order-confirmation#(\S+)/.exec(placed!.text)![1]!);
    expect(await host.api('POST', '/api/orders/confirmation', { body: { token } })).toMatchObject({
      status: 200,
      body: { orderNumber },
    });

    expect((await setStatus(orderNumber, 'Out for Delivery')).status).toBe(200);
    await waitForMails(orderNumber, 2);
    expect((await setStatus(orderNumber, 'Delivered')).status).toBe(200);
    const all = await waitForMails(orderNumber, 3);
    expect(all.map((m) => m.subject)).toEqual([
      `Your order ${orderNumber} is delivered`,
      `Your order ${orderNumber} is out for delivery`,
      `Your order ${orderNumber} is placed`,
    ]);
    expect(all[0]!.text).toContain('has been delivered');

    // Nothing else is pending for it: once the run under way (if any) ends, a run sends nothing more.
    await order().mails.run();
    expect(await order().mails.run()).toBe(0);
    expect(await mailsAbout(orderNumber)).toHaveLength(3);

    // Each mail sent is an event of the order's history (what `npm run audit -- order N` shows).
    const history = await orderHistoryPart(host.ctx.pool).order(orderNumber);
    const sent = history.filter((e) => e.type === 'OrderEmailSent');
    expect(history.filter((e) => e.type !== 'OrderEmailSent').map((e) => e.type)).toEqual([
      'OrderPlaced',
      'DeliveryStatusChanged',
      'DeliveryStatusChanged',
    ]);
    expect(sent.map((e) => (e.data as { kind: string }).kind)).toEqual([
      'order-placed',
      'out-for-delivery',
      'delivered',
    ]);
    expect(sent[0]!.data).toMatchObject({ orderNumber, to: 'asha@example.in', via: 'sandbox' });
  });

  it("mails a cancellation with the admin's reason, escaped in HTML", async () => {
    const orderNumber = await placePaidOrder(host.ctx, paymentVerifiedData({}));
    await waitForMails(orderNumber, 1);
    const cancel = await host.api('PATCH', `/api/orders/admin/${orderNumber}/cancel`, {
      token: admin,
      body: { reason: 'Size <M> ran out' },
    });
    expect(cancel.status).toBe(200);
    const [cancelled] = await waitForMails(orderNumber, 2);
    expect(cancelled).toMatchObject({ subject: `Your order ${orderNumber} is cancelled`, to: 'asha@example.in' });
    expect(cancelled!.text).toContain(`Your order ${orderNumber} is cancelled: Size <M> ran out`);
    expect(cancelled!.text).toContain('The amount you paid, ₹2,749.10, will be refunded');
    expect(cancelled!.html).toContain('Size &lt;M&gt; ran out');
  });

  it('sends nothing again when the events are delivered again or replayed', async () => {
    const orderNumber = await placePaidOrder(host.ctx, paymentVerifiedData({}));
    await setStatus(orderNumber, 'Out for Delivery');
    await waitForMails(orderNumber, 2);
    await order().mails.run(); // the run under way, if any, has ended
    const reactor = order().consumers.find((c) => c.name === ORDER_MAILS_CONSUMER)!;
    const events = await host.ctx.eventStore('orders').readStream(orderStreamId(orderNumber));
    expect(events.map((e) => e.type)).toEqual(['OrderPlaced', 'DeliveryStatusChanged']);

    // The reactor's handle, in a transaction as the bus runs it, for every event once more.
    const effects = await withTransaction(host.ctx.pool, (tx) => Promise.all(events.map((e) => reactor.handle(e, tx))));
    expect(effects).toEqual([undefined, undefined]);
    expect(await order().mails.run()).toBe(0);
    expect(await mailsAbout(orderNumber)).toHaveLength(2);
  });

  it('keeps a mail a failing SMTP server refused, with an error naming the server and no password, and sends it later', async () => {
    // A real TCP server that answers as a mail server that is down does.
    const down = net.createServer((socket) => socket.end('421 4.3.2 Service not available, closing channel\r\n'));
    await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
    const port = (down.address() as net.AddressInfo).port;
    const logged: string[] = [];
    const logger = createLogger(
      'order',
      'debug',
      new Writable({
        write(chunk: Buffer, _enc, done) {
          logged.push(chunk.toString());
          done();
        },
      }),
    );
    const smtp = new SmtpMailer(
      `smtp://shop-mailer:hunter2-very-secret@127.0.0.1:${port}`,
      'Kapda <no-reply@shop.local>',
    );
    let now = Date.now();
    const clock = () => new Date(now);
    const failing = new OutgoingMail({ pool: host.ctx.pool, schema: 'orders', mailer: smtp, clock, logger });
    const key = `smtp-test-${now}`;
    await failing.record(host.ctx.pool, {
      key,
      kind: 'order-placed',
      to: 'ravi@example.in',
      subject: `Your order ORD-SMTP-${now} is placed`,
      text: 'Thank you',
      html: '<p>Thank you</p>',
    });

    await expect(
      smtp.send({ to: 'ravi@example.in', subject: 's', text: 't', html: 'h', messageId: '<x@shop.mail>' }),
    ).rejects.toSatisfy((err) => err instanceof MailDeliveryError && err.retriable);
    expect(await failing.run()).toBe(0);
    const { rows } = await host.ctx.pool.query<{ attempts: number; last_error: string; sent_at: Date | null }>(
      'SELECT attempts, last_error, sent_at FROM orders.outgoing_mail WHERE mail_key = $1',
      [key],
    );
    expect(rows[0]).toMatchObject({ attempts: 1, sent_at: null });
    expect(rows[0]!.last_error).toContain(`smtp://127.0.0.1:${port}`);
    expect(rows[0]!.last_error).toContain('421');
    expect(logged.join('')).toContain('e-mail not sent; it will be retried');
    for (const text of [rows[0]!.last_error, logged.join('')]) {
      expect(text).not.toContain('hunter2');
      expect(text).not.toContain('shop-mailer');
    }
    // Not due again before its backoff; due after it, and then sent (here through the sandbox).
    expect(await failing.run()).toBe(0);
    now += 2_000;
    const healthy = new OutgoingMail({ pool: host.ctx.pool, schema: 'orders', mailer: host.ctx.mailer, clock, logger });
    expect(await healthy.run()).toBe(1);
    expect(await mailsAbout(`ORD-SMTP-${now - 2_000}`)).toHaveLength(1);
    expect(await healthy.run()).toBe(0);
    smtp.close();
    await new Promise((resolve) => down.close(resolve));
  });
});
