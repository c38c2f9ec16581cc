import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { sandboxPay } from '../../../services/razorpay-sandbox/src/sandbox-pay.ts';
import { DEFAULT_ADMIN } from '@shop/test-support/fixtures';
import {
  atBothWidths,
  expectFits,
  fillLabelled,
  submitLogin,
  useShopAndBrowser,
  type Viewport,
  VIEWPORTS,
} from '../support/browser.ts';

// Issue 10, Must show (b) and the products part of (c): the admin screens against the embedded default,
// in Debian's Chromium. An order placed through the API for a signed-in shopper changes status from
// /admin/orders while the shopper's /my-orders page, open in another context, shows it without a reload;
// a product made through the admin form (per-size stock, an image file) is delisted and re-activated,
// and the storefront's /products follows each step.

const WAIT = { timeout: 20_000 };

const shop = useShopAndBrowser();
const contexts: BrowserContext[] = [];

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
});

async function api<T>(
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${shop.base}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

async function visitor(viewport: Viewport = VIEWPORTS.desktop) {
  const visit = await shop.visit(viewport);
  contexts.push(visit.context);
  return visit;
}

/** Logs in through the /login form (the seed's labels) and waits to leave the login page. */
async function logIn(page: Page, credentials: { email: string; password: string }, next = '/login') {
  await page.goto(next);
  await submitLogin(page, credentials);
  await page.waitForURL((url) => url.pathname !== '/login', WAIT);
}

/** The same signed-in session at another width (storage holds the session under user and token). */
async function sameSessionAt(page: Page, viewport: Viewport): Promise<Page> {
  const context = await shop.browser.newContext({
    baseURL: shop.base,
    viewport,
    storageState: await page.context().storageState(),
  });
  contexts.push(context);
  return context.newPage();
}

type Product = {
  id: string;
  name: string;
  quantity: number;
  sizeQuantities: Record<string, number>;
  image: string | null;
};

describe('admin screens in a browser', () => {
  it('(b) the admin moves an order to Out for Delivery in /admin/orders and the shopper’s open /my-orders shows it without a reload', async () => {
    // A shopper with an account, and an order of theirs paid through the sandbox.
    const shopper = { email: `shopper-${Date.now()}@example.in`, password: 'secret123' };
    const registered = await api<{ token: string }>('POST', '/api/auth/register', {
      name: 'Meera Iyer',
      email: shopper.email,
      phone: '+919812345678',
      password: shopper.password,
    });
    expect(registered.status).toBe(201);
    const token = registered.body.token;
    const products = await api<Product[]>('GET', '/api/products');
    const product = products.body.find((p) => p.quantity > 0 && Object.values(p.sizeQuantities).some((n) => n > 0));
    if (!product) throw new Error('the demo catalog has no product in stock by size');
    const size = Object.entries(product.sizeQuantities).find(([, n]) => n > 0)![0];
    const orderData = {
      address: '14 Residency Road, Bengaluru',
      pincode: '560025',
      customerName: 'Meera Iyer',
      customerPhone: '+919812345678',
      customerEmail: shopper.email,
      items: [{ productId: product.id, quantity: 1, size, color: null }],
      couponCode: null,
    };
    const created = await api<{ id: string }>(
      'POST',
      '/api/payment/create-order',
      { amount: 1, currency: 'INR', receipt: `rcpt_${Date.now()}`, orderData },
      token,
    );
    expect(created.status).toBe(201);
    const paid = await sandboxPay(`${shop.base}/razorpay-sandbox`, created.body.id);
    const verified = await api<{ success: boolean; orderNumber: string }>(
      'POST',
      '/api/payment/verify',
      { ...paid, orderData },
      token,
    );
    expect(verified.status).toBe(200);
    const orderNumber = verified.body.orderNumber;
    expect(orderNumber).toBeTruthy();

    // The shopper has /my-orders open, logged in through the form.
    const { page: shopperPage } = await visitor();
    await logIn(shopperPage, shopper);
    await shopperPage.goto('/my-orders');
    const shopperOrder = shopperPage.getByRole('article', { name: `Order ${orderNumber}` });
    await shopperOrder.waitFor(WAIT);
    await expect.poll(() => shopperOrder.textContent(), WAIT).toContain('Processing');
    // A marker that a reload would wipe.
    await shopperPage.evaluate('window.__sameDocument = true');
    // The shipment (the built-in Shiprocket sandbox) reaches the open page by push: its AWB, status and link.
    await expect.poll(() => shopperOrder.textContent(), WAIT).toContain('Track your parcel');
    const awb = (
      await api<Array<{ orderNumber: string; shiprocketAWB: string }>>('GET', '/api/orders', undefined, token)
    ).body.find((o) => o.orderNumber === orderNumber)!.shiprocketAWB;
    expect(await shopperOrder.textContent()).toContain(`AWB ${awb}`);
    await expectFits(shopperPage, 'my-orders');
    const shopperPhone = await sameSessionAt(shopperPage, VIEWPORTS.phone);
    await shopperPhone.goto('/my-orders');
    await expect
      .poll(() => shopperPhone.getByRole('article', { name: `Order ${orderNumber}` }).textContent(), WAIT)
      .toContain('Track your parcel');
    await expectFits(shopperPhone, 'my-orders');
    // The parcel comes back (return to origin): the admin's list says it needs action.
    expect(
      (await api('POST', `/shiprocket-sandbox/sandbox/shipments/${awb}/advance`, { status: 'RTO INITIATED' })).status,
    ).toBe(200);

    // The admin logs in (sent to /admin) and sees the dashboard's figures and the revenue chart.
    const { page: admin } = await visitor();
    await logIn(admin, DEFAULT_ADMIN);
    await expect.poll(() => new URL(admin.url()).pathname, WAIT).toBe('/admin');
    await admin.getByText('Total Revenue').waitFor(WAIT);
    await admin.getByRole('img', { name: /Revenue per day/ }).waitFor(WAIT);
    const revenueTile = admin.locator('dd').first();
    await expect.poll(() => revenueTile.textContent(), WAIT).toMatch(/^₹[\d,]+(\.\d{1,2})?$/);
    await expectFits(admin, 'admin-dashboard');

    // /admin/orders: the order in the scroll area, with its data, badge and the status dropdown.
    await admin.getByRole('link', { name: /^Orders/ }).click();
    const adminOrder = admin.getByRole('article', { name: `Order ${orderNumber}` });
    await adminOrder.waitFor(WAIT);
    const text = (await adminOrder.textContent()) ?? '';
    expect(text).toContain('Meera Iyer');
    expect(text).toContain(shopper.email);
    expect(text).toContain('14 Residency Road, Bengaluru');
    expect(text).toContain(product.name);
    expect(text).toMatch(/AWB/);
    expect(text).toMatch(/Tracking URL/);
    expect(text).toContain(awb);
    await expect.poll(() => adminOrder.textContent(), WAIT).toContain('RTO INITIATEDNeeds action');
    // The tracking fields, scrolled into the list's view, at both widths.
    await atBothWidths(admin, 'admin-orders-tracking', async () => {
      const attention = admin.getByRole('article', { name: `Order ${orderNumber}` }).getByText('Needs action');
      await attention.waitFor(WAIT);
      await attention.scrollIntoViewIfNeeded();
    });
    expect(text).toContain('₹');
    expect(
      await admin.evaluate<string>(
        `getComputedStyle(document.querySelector('[role="region"][aria-label="Orders list"]')).maxHeight`,
      ),
    ).toBe('256px');
    // Only a delivered order offers Delete.
    expect(await adminOrder.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    await expectFits(admin, 'admin-orders');

    // The dashboard, open at phone width in the same session, follows the figures live.
    const phone = await sameSessionAt(admin, VIEWPORTS.phone);
    await phone.goto('/admin');
    const outForDelivery = phone.getByRole('group', { name: 'Out for Delivery', exact: true }).locator('dd');
    await expect.poll(() => outForDelivery.textContent(), WAIT).toBe('0');
    await phone.evaluate('window.__sameDocument = true');

    await adminOrder.getByLabel('Delivery status').selectOption('Out for Delivery');
    await expect.poll(() => adminOrder.locator('[data-tone]').first().textContent(), WAIT).toBe('Out for Delivery');
    await adminOrder.getByRole('button', { name: 'Mark Seen' }).click();
    await adminOrder.getByRole('button', { name: 'Seen' }).waitFor(WAIT);

    // The shopper's page follows without a reload.
    await expect.poll(() => shopperOrder.textContent(), WAIT).toContain('Out for Delivery');
    expect(await shopperPage.evaluate('window.__sameDocument === true')).toBe(true);
    await expect.poll(() => outForDelivery.textContent(), WAIT).toBe('1');
    expect(await phone.evaluate('window.__sameDocument === true')).toBe(true);

    // Delivered orders can be deleted, after the confirmation that says so.
    await adminOrder.getByLabel('Delivery status').selectOption('Delivered');
    await adminOrder.getByRole('button', { name: 'Delete' }).click();
    const dialog = admin.getByRole('alertdialog');
    await dialog.waitFor(WAIT);
    expect(await dialog.textContent()).toContain('Only delivered orders can be deleted');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await adminOrder.count()).toBe(1);

    // The same screens at phone width fit without sideways scrolling.
    await phone.goto('/admin/orders');
    await phone.getByRole('article', { name: `Order ${orderNumber}` }).waitFor(WAIT);
    await expectFits(phone, 'admin-orders');
    await phone.goto('/admin');
    await phone.getByRole('img', { name: /Revenue per day/ }).waitFor(WAIT);
    await expectFits(phone, 'admin-dashboard');
  });

  it('(c) the admin creates a product with per-size stock and an image, delists it (gone from /products) and re-activates it (back)', async () => {
    const name = `Block Print Kurta ${Date.now()}`;
    const { page: admin } = await visitor();
    await logIn(admin, DEFAULT_ADMIN);
    await admin.goto('/admin/products');
    await admin.getByRole('heading', { name: 'Manage Products' }).waitFor(WAIT);

    // Nothing filled: the seed's message.
    await admin.getByRole('button', { name: 'Add Product' }).click();
    await admin.getByRole('alert').filter({ hasText: 'Please fill name, price, and quantity' }).first().waitFor(WAIT);

    await fillLabelled(admin, {
      Name: name,
      'Price (₹)': '1499.50',
      Category: 'Men',
      Color: 'Indigo',
      Brand: 'Kapda',
      Material: 'Cotton',
      Description: 'Hand block printed cotton kurta',
    });
    await admin.getByLabel('Size S', { exact: true }).fill('2');
    await admin.getByLabel('Size M', { exact: true }).fill('3');
    const newSize = admin.getByLabel('New size label (press Enter to add)');
    await newSize.fill('XXL');
    await newSize.press('Enter');
    await admin.getByLabel('Size XXL', { exact: true }).fill('1');
    // A label already there is refused.
    await newSize.fill('m');
    await newSize.press('Enter');
    await admin.getByText('Size m is already in the list').waitFor(WAIT);
    // Sold by size: the quantity is the sum of the sizes.
    expect(await admin.getByLabel('Quantity').inputValue()).toBe('6');
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    await admin.getByLabel('Image').setInputFiles({ name: 'kurta.png', mimeType: 'image/png', buffer: png });
    await admin.getByRole('button', { name: 'Add Product' }).click();
    await admin.getByRole('status').filter({ hasText: 'Product added' }).waitFor(WAIT);

    const row = admin.getByRole('article', { name });
    await row.waitFor(WAIT);
    const all = await api<Product[]>('GET', '/api/products');
    const created = all.body.find((p) => p.name === name);
    expect(created?.sizeQuantities).toEqual({ S: 2, M: 3, L: 0, XL: 0, XXL: 1 });
    expect(created?.quantity).toBe(6);
    expect(created?.image).toBeTruthy();

    // The storefront lists it.
    const { page: shopper } = await visitor();
    const cardCount = async () => {
      await shopper.goto('/products');
      await shopper.getByRole('button', { name: 'Add to Cart' }).first().waitFor(WAIT);
      return shopper.getByRole('article', { name }).count();
    };
    await expect.poll(cardCount, WAIT).toBe(1);

    // Delist: gone from /products, still on the admin list with its badge.
    await row.getByRole('button', { name: 'Delist' }).click();
    await row.getByRole('button', { name: 'Activate' }).waitFor(WAIT);
    await row.getByText('Delisted').waitFor(WAIT);
    await expect.poll(cardCount, WAIT).toBe(0);

    // Activate: back on /products.
    await row.getByRole('button', { name: 'Activate' }).click();
    await row.getByRole('button', { name: 'Delist' }).waitFor(WAIT);
    await expect.poll(cardCount, WAIT).toBe(1);

    // Edit mode by ?edit={id}; Cancel Edit returns to add mode.
    await row.getByRole('button', { name: 'Edit' }).click();
    await expect.poll(() => new URL(admin.url()).search, WAIT).toBe(`?edit=${created!.id}`);
    // The form takes the product's fields in the render after the URL changes.
    await expect.poll(() => admin.getByLabel('Name').inputValue(), WAIT).toBe(name);
    await admin.getByLabel('Price (₹)').fill('1299');
    await admin.getByRole('button', { name: 'Update Product' }).click();
    await admin.getByRole('status').filter({ hasText: 'Product updated' }).waitFor(WAIT);
    await expect
      .poll(
        async () => (await api<Product & { price: number }>('GET', `/api/products/${created!.id}`)).body.price,
        WAIT,
      )
      .toBe(1299);
    await row.getByRole('button', { name: 'Edit' }).click();
    await admin.getByRole('button', { name: 'Cancel Edit' }).click();
    await expect.poll(() => new URL(admin.url()).search, WAIT).toBe('');
    await admin.getByRole('button', { name: 'Add Product' }).waitFor(WAIT);

    // Products and users fit a phone too.
    for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
      const page = viewport === VIEWPORTS.desktop ? admin : await sameSessionAt(admin, viewport);
      await page.goto('/admin/products');
      await page.getByRole('article', { name }).waitFor(WAIT);
      await expectFits(page, 'admin-products');
      await page.goto('/admin/users');
      await page.getByText(DEFAULT_ADMIN.email).waitFor(WAIT);
      await expectFits(page, 'admin-users');
    }
  });
});
