import fs from 'node:fs';
import path from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createRazorpayProvider,
  verifyPaymentSignature,
  type PaymentProvider,
} from '../../services/checkout/src/payment-provider/index.ts';
import { setWebSecurityHeaders, WEB_DIST } from '../../services/gateway/src/web.ts';
import { ADMIN, startTestShop, type TestShop } from '@shop/test-support/test-shop';
import { waitUntil } from '@shop/test-support/wait-until';
import { submitLogin } from './support/browser.ts';
import { useSandboxBrowser } from './support/sandbox-browser.ts';

/**
 * Issue 15, defect 8: the web app's Content-Security-Policy in a real browser (Debian's headless Chromium
 * through playwright-core).
 * A page served with the app's security headers, on the origin that hosts the Razorpay sandbox (as the
 * gateway does), loads /razorpay-sandbox/v1/checkout.js and pays through its dialog; an inline script on the
 * same page is blocked. And the built web app renders under its own CSP.
 */

const keyId = 'rzp_test_cspKey01';
const keySecret = 'csp-key-secret';

interface Report {
  kind: 'opened' | 'handler' | 'violation' | 'page-error' | 'inline-ran';
  data: Record<string, unknown>;
}

const reports: Report[] = [];
let provider: PaymentProvider;
let originUrl: string;

// Same-origin, external: the CSP allows no inline script, so the page's logic lives in /probe.js.
const PROBE = `
const report = (kind, data) => fetch('/report', {
  method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ kind, data: data || {} }),
});
document.addEventListener('securitypolicyviolation', (e) =>
  report('violation', { directive: e.effectiveDirective, blocked: e.blockedURI }));
window.addEventListener('error', (e) => report('page-error', { message: String(e.message) }));
const q = new URLSearchParams(location.search);
(async () => {
  try {
    const rzp = new Razorpay({
      key: q.get('key'), order_id: q.get('order'), amount: Number(q.get('amount')), currency: 'INR', name: 'Kapda',
      handler: (response) => report('handler', { response }),
    });
    rzp.open();
    await report('opened', { dialog: !!document.querySelector('[data-testid=rzp-sandbox]') });
  } catch (e) {
    report('page-error', { message: String((e && e.stack) || e) });
  }
})();
`;

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Checkout</title></head><body>
<script src="/razorpay-sandbox/v1/checkout.js"></script>
<script src="/probe.js"></script>
<script>fetch('/report', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"kind":"inline-ran","data":{}}' });</script>
</body></html>`;

const env = useSandboxBrowser({ keyId, keySecret }, async ({ sandbox, serve }) => {
  const app = express();
  app.use('/razorpay-sandbox', sandbox.router);
  app.get('/probe.js', (_req, res) => {
    setWebSecurityHeaders(res);
    res.type('application/javascript').send(PROBE);
  });
  app.get('/checkout', (_req, res) => {
    setWebSecurityHeaders(res);
    res.type('html').send(PAGE);
  });
  app.post('/report', express.json(), (req, res) => {
    reports.push(req.body as Report);
    res.sendStatus(204);
  });
  originUrl = await serve(app);
  provider = createRazorpayProvider({ keyId, keySecret, apiUrl: `${originUrl}/razorpay-sandbox` });
});

/** A fresh browser context (no shared storage or cache); page errors are reported like the page's own. */
async function openPage() {
  const page = await env.newPage();
  page.on('pageerror', (error) => reports.push({ kind: 'page-error', data: { message: String(error) } }));
  return page;
}

describe('web app Content-Security-Policy in Chromium (issue 15, defect 8)', () => {
  it("a page under the app's CSP loads the same-origin sandbox checkout.js and pays; an inline script is blocked", async () => {
    const order = await provider.createOrder({ amountPaise: 99_900, currency: 'INR', receipt: 'csp_pay' });
    const url = `${originUrl}/checkout?${new URLSearchParams({ key: keyId, order: order.id, amount: '99900' })}`;
    const page = await openPage();
    await page.goto(url);
    // The shopper pays: Playwright waits, with its deadline, for the dialog's Pay button to be enabled.
    await page.getByTestId('rzp-sandbox-pay').click();
    await waitUntil(
      () => {
        const errors = reports.filter((r) => r.kind === 'page-error');
        if (errors.length) throw new Error(`page error: ${JSON.stringify(errors)}`);
        return reports.some((r) => r.kind === 'handler') && reports.some((r) => r.kind === 'violation');
      },
      'the payment handler and the inline script refusal',
      30_000,
    );
    expect(reports.find((r) => r.kind === 'opened')?.data.dialog).toBe(true);
    const response = reports.find((r) => r.kind === 'handler')!.data.response as Record<string, string>;
    expect(
      verifyPaymentSignature({
        orderId: order.id,
        paymentId: response.razorpay_payment_id!,
        signature: response.razorpay_signature!,
        secret: keySecret,
      }),
    ).toBe(true);
    // The only thing the CSP refused is the inline script; the sandbox script and its calls went through.
    const violations = reports.filter((r) => r.kind === 'violation').map((r) => r.data);
    expect(violations).toEqual([{ directive: 'script-src-elem', blocked: 'inline' }]);
    expect(reports.some((r) => r.kind === 'inline-ran')).toBe(false);
  });

  describe('the built web app', () => {
    let shop: TestShop;
    beforeAll(async () => {
      if (!fs.existsSync(path.join(WEB_DIST, 'index.html')))
        throw new Error('This test needs the built web app: npm run build:web');
      shop = await startTestShop({ seed: true });
    });
    afterAll(() => shop?.stop());

    it('renders under its own CSP (the served HTML carries it, X-Frame-Options DENY and nosniff)', async () => {
      const head = await fetch(`${shop.url}/`);
      expect(head.headers.get('content-security-policy')).toMatch(
        /script-src 'self' https:\/\/checkout\.razorpay\.com/,
      );
      expect(head.headers.get('x-frame-options')).toBe('DENY');
      expect(head.headers.get('x-content-type-options')).toBe('nosniff');
      const page = await openPage();
      const refused: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
      });
      await page.goto(`${shop.url}/`);
      const products = (await (await fetch(`${shop.url}/api/products`)).json()) as Array<{ name: string }>;
      await page.getByText(products[0]!.name).first().waitFor({ timeout: 30_000 });
      const dom = await page.content();
      // React rendered the shell and the seeded catalog: scripts, styles and the API call were allowed.
      const root = /<div id="root">([\s\S]*)<\/div>/.exec(dom)?.[1] ?? '';
      expect(root.length).toBeGreaterThan(500);
      const escape = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
      expect(products.some((p) => dom.includes(escape(p.name)))).toBe(true);
      expect(refused).toEqual([]);
      expect(reports.filter((r) => r.kind === 'page-error')).toEqual([]);
    });

    it("forms run without eval: zod's eval probe is refused by the CSP on no page (issue 27 item 7)", async () => {
      const page = await openPage();
      // Every refusal the page sees, from its first script on: the console shows only some of them.
      // (Page scripts as text: this file is compiled without the DOM library.)
      await page.addInitScript({
        content: `window.cspViolations = [];
          document.addEventListener('securitypolicyviolation', (e) =>
            window.cspViolations.push(e.effectiveDirective + ' ' + e.blockedURI));`,
      });
      const violations = () => page.evaluate<string[]>('window.cspViolations');
      await page.goto(`${shop.url}/login`);
      await submitLogin(page, ADMIN);
      await page.waitForURL((url) => url.pathname !== '/login', { timeout: 30_000 });
      const seen: Record<string, string[]> = { '/login': await violations() };
      for (const path of ['/profile', '/checkout', '/admin/products']) {
        await page.goto(`${shop.url}${path}`);
        // The page's chunks loaded and its first calls answered.
        await page.waitForLoadState('networkidle', { timeout: 30_000 });
        seen[path] = await violations();
      }
      expect(seen).toEqual({ '/login': [], '/profile': [], '/checkout': [], '/admin/products': [] });
    });
  });
});
