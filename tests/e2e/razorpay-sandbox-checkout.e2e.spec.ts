import express from 'express';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  createRazorpayProvider,
  verifyPaymentSignature,
  type PaymentProvider,
} from '../../services/checkout/src/payment-provider/index.ts';
import { useSandboxBrowser } from './support/sandbox-browser.ts';
import { waitUntil } from '@shop/test-support/wait-until';

/**
 * The sandbox's checkout.js in a real browser (Debian's headless Chromium through playwright-core):
 * a shop page on one origin loads the script from the sandbox on another, opens the dialog and clicks its
 * buttons; the page reports every callback to the test server, which waits for them with a deadline.
 */

const keyId = 'rzp_test_browserKey01';
const keySecret = 'browser-key-secret';

interface Report {
  scenario: string;
  kind: 'opened' | 'handler' | 'payment.failed' | 'dismissed' | 'page-error';
  data: Record<string, unknown> & { dialogOpen?: boolean };
}

let sandboxUrl: string;
let shopUrl: string;
let provider: PaymentProvider;
const reports: Report[] = [];

// The shop page: plain JavaScript, the way the web app will use window.Razorpay.
const page = (sandboxBase: string) => `<!doctype html>
<html><head><meta charset="utf-8"><title>Checkout</title></head><body>
<script src="${sandboxBase}/v1/checkout.js"></script>
<script>
const q = new URLSearchParams(location.search);
const scenario = q.get('scenario');
const dialogOpen = () => !!document.querySelector('[data-testid=rzp-sandbox]');
const report = (kind, data) => fetch('/report', {
  method: 'POST', headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ scenario, kind, data: Object.assign({ dialogOpen: dialogOpen() }, data) }),
});
window.addEventListener('error', (e) => report('page-error', { message: String(e.message) }));
(async () => {
  try {
    const rzp = new Razorpay({
      key: q.get('key'), order_id: q.get('order'), amount: Number(q.get('amount')), currency: 'INR',
      name: 'Kapda', description: 'Order of 2 items', theme: { color: '#0b6e4f' },
      prefill: { name: 'Asha Rao', email: 'asha@example.in', contact: '+919800000001' },
      handler: (response) => report('handler', { response }),
      modal: { ondismiss: () => report('dismissed', {}) },
    });
    rzp.on('payment.failed', (response) => {
      const status = document.querySelector('[data-testid=rzp-sandbox-status]');
      report('payment.failed', { response, status: status && status.textContent });
    });
    rzp.open();
    const dialog = document.querySelector('[data-testid=rzp-sandbox]');
    await report('opened', { text: dialog && dialog.innerText });
  } catch (e) {
    report('page-error', { message: String((e && e.stack) || e) });
  }
})();
</script></body></html>`;

const env = useSandboxBrowser({ keyId, keySecret }, async ({ sandbox, serve }) => {
  const sandboxApp = express();
  sandboxApp.use('/razorpay-sandbox', sandbox.router);
  sandboxUrl = `${await serve(sandboxApp)}/razorpay-sandbox`;
  provider = createRazorpayProvider({ keyId, keySecret, apiUrl: sandboxUrl });

  // A different port is a different origin: the script and its fetches go cross-origin, as from a real shop.
  const shop = express();
  shop.get('/checkout', (_req, res) => void res.type('html').send(page(sandboxUrl)));
  shop.post('/report', express.json(), (req, res) => {
    reports.push(req.body as Report);
    res.sendStatus(204);
  });
  shopUrl = await serve(shop);
});

/** A fresh browser context (no shared storage) on the shop page; page errors are reported like the page's own. */
async function openPage(scenario: string, url: string): Promise<Page> {
  const page = await env.newPage();
  page.on('pageerror', (error) => reports.push({ scenario, kind: 'page-error', data: { message: String(error) } }));
  await page.goto(url);
  return page;
}

/**
 * Opens the dialog for a new order and clicks the scenario's button as a shopper would (Playwright waits
 * for it to be there and enabled); after a failure the dialog stays open and the shopper clicks Pay.
 */
async function runScenario(scenario: 'pay' | 'cancel' | 'fail', until: (r: Report[]) => boolean) {
  const order = await provider.createOrder({ amountPaise: 149_950, currency: 'INR', receipt: `browser_${scenario}` });
  const url = `${shopUrl}/checkout?${new URLSearchParams({ scenario, key: keyId, order: order.id, amount: '149950' })}`;
  const page = await openPage(scenario, url);
  const mine = () => reports.filter((r) => r.scenario === scenario || r.scenario === '*');
  const reported = (kind: Report['kind'], what: string) =>
    waitUntil(
      async () => {
        const errors = mine().filter((r) => r.kind === 'page-error');
        if (errors.length) throw new Error(`page error: ${JSON.stringify(errors.map((e) => e.data))}`);
        return mine().some((r) => r.kind === kind);
      },
      what,
      30_000,
    );
  await reported('opened', 'the dialog to open');
  await page.getByTestId(`rzp-sandbox-${scenario}`).click();
  if (scenario === 'fail') {
    await reported('payment.failed', 'the payment.failed callback');
    await page.getByTestId('rzp-sandbox-pay').click();
  }
  await waitUntil(async () => until(mine()), `the ${scenario} scenario's callbacks`, 30_000);
  return { order, reports: mine() };
}

const kinds = (rs: Report[]) => rs.map((r) => r.kind);

describe('sandbox checkout.js in Chromium', () => {
  it('opens a labelled dialog with the amount in rupees; Pay hands a verifiable signature to handler', async () => {
    const { order, reports: got } = await runScenario('pay', (rs) => rs.some((r) => r.kind === 'handler'));
    expect(kinds(got)).toEqual(['opened', 'handler']);

    const opened = got[0]!.data;
    expect(opened.dialogOpen).toBe(true);
    expect(opened.text).toContain('Razorpay sandbox: test payment');
    expect(opened.text).toContain('₹1,499.50');
    expect(opened.text).toContain('Kapda');
    expect(opened.text).toContain(order.id);

    const handler = got[1]!.data as { dialogOpen: boolean; response: Record<string, string> };
    expect(handler.dialogOpen).toBe(false);
    expect(Object.keys(handler.response).sort()).toEqual([
      'razorpay_order_id',
      'razorpay_payment_id',
      'razorpay_signature',
    ]);
    expect(handler.response.razorpay_order_id).toBe(order.id);
    expect(
      verifyPaymentSignature({
        orderId: order.id,
        paymentId: handler.response.razorpay_payment_id!,
        signature: handler.response.razorpay_signature!,
        secret: keySecret,
      }),
    ).toBe(true);
    expect(await provider.fetchOrder(order.id)).toMatchObject({ status: 'paid', amount_paid: 149_950 });
  });

  it('Cancel closes the dialog and calls modal.ondismiss; nothing is paid', async () => {
    const { order, reports: got } = await runScenario('cancel', (rs) => rs.some((r) => r.kind === 'dismissed'));
    expect(kinds(got)).toEqual(['opened', 'dismissed']);
    expect(got[1]!.data.dialogOpen).toBe(false);
    expect(await provider.fetchOrder(order.id)).toMatchObject({ status: 'created', amount_paid: 0 });
    expect(await provider.fetchPayments(order.id)).toEqual([]);
  });

  it("Fail calls on('payment.failed') with Razorpay's error shape and keeps the dialog open; Pay then succeeds", async () => {
    const { order, reports: got } = await runScenario('fail', (rs) => rs.some((r) => r.kind === 'handler'));
    expect(kinds(got)).toEqual(['opened', 'payment.failed', 'handler']);

    const failed = got[1]!.data as {
      dialogOpen: boolean;
      status: string;
      response: { error: Record<string, unknown> };
    };
    expect(failed.dialogOpen).toBe(true);
    expect(failed.status).toContain('Payment failed (sandbox)');
    expect(failed.response.error).toMatchObject({
      code: 'BAD_REQUEST_ERROR',
      description: 'Payment failed (sandbox)',
      reason: 'payment_failed',
      metadata: { order_id: order.id, payment_id: expect.stringMatching(/^pay_/) },
    });

    const payments = await provider.fetchPayments(order.id);
    expect(payments.map((p) => p.status)).toEqual(['failed', 'captured']);
    expect(await provider.fetchOrder(order.id)).toMatchObject({ status: 'paid' });
  });
});
