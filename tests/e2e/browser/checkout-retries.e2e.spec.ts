import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { atBothWidths, fillLabelled, screenshot, useShopAndBrowser, VIEWPORTS } from '../support/browser.ts';

// Issue 22 ("a checkout shoppers can trust"), browser tests: a buyer who cancels, fails, reloads or pays in two
// tabs can pay again at once (their own abandoned checkout never blocks them, and its stock is back for everyone
// straight away), and a payment for a checkout that was replaced ends in exactly one outcome: an order, or a
// refund. Real web app, real API, the built-in Razorpay sandbox's dialog, against the embedded default shop.

const shop = useShopAndBrowser();

type Product = { id: string; name: string; quantity: number; sizeQuantities: Record<string, number> };
type Order = {
  orderNumber: string;
  customerEmail: string;
  razorpayPaymentId: string;
  items: { Product: { name: string }; orderedQuantity: number; size: string | null }[];
};
type Refund = { razorpayPaymentId: string; customerEmail: string | null; status: 'due' | 'refunded'; reason: string };

const CONFIRMATION_URL = /\/order-confirmation#.+/;
/** The words of a refusal that would mean the buyer's own abandoned checkout blocked them. */
const ZERO_LEFT = /only has 0 item\(s\) available/;
/** How long a cancelled checkout's stock may take to show again to another shopper ("a second or two"). */
const RELEASED_WITHIN_MS = 2_500;

const sandboxDialog = (page: Page) => page.getByRole('dialog', { name: 'Razorpay sandbox: test payment' });
const payButton = (page: Page) => page.getByRole('button', { name: /^Pay ₹/ });
const notification = (page: Page, title: string) => page.getByText(title, { exact: true }).first();
const storedCart = (page: Page) => page.evaluate<unknown[]>('JSON.parse(window.localStorage.getItem("cart") || "[]")');

async function productNamed(name: string): Promise<Product> {
  const product = (await shop.api<Product[]>('/products')).find((p) => p.name === name);
  if (!product) throw new Error(`no product named ${name}`);
  return shop.api<Product>(`/products/${product.id}`);
}

async function ordersOf(email: string): Promise<Order[]> {
  const all = await shop.api<Order[]>('/orders/admin/all', { token: await shop.adminToken() });
  return all.filter((o) => o.customerEmail === email);
}

async function refunds(): Promise<Refund[]> {
  return shop.api<Refund[]>('/payment/admin/refunds', { token: await shop.adminToken() });
}

/** The admin sets one size's stock (the other sizes as they were). */
async function setSizeStock(product: Product, size: string, units: number) {
  await shop.api(`/products/${product.id}`, {
    method: 'PUT',
    token: await shop.adminToken(),
    body: { sizeQuantities: { ...product.sizeQuantities, [size]: units } },
  });
  expect((await productNamed(product.name)).sizeQuantities[size]).toBe(units);
}

/** The product's size has `units` left, and no count of it is below 0. */
async function expectStockNotBelowZero(name: string, size: string, units: number) {
  const product = await productNamed(name);
  expect(product.sizeQuantities[size]).toBe(units);
  expect(Math.min(product.quantity, ...Object.values(product.sizeQuantities))).toBeGreaterThanOrEqual(0);
}

/**
 * Every payment the sandbox dialog took in `context` (its answers to Pay), by payment id: what orders and refunds
 * must account for.
 */
function paymentsTakenIn(context: BrowserContext): string[] {
  const taken: string[] = [];
  context.on('response', (response) => {
    if (!/\/v1\/checkout\/orders\/[^/]+\/pay$/.test(new URL(response.url()).pathname) || !response.ok()) return;
    void response
      .json()
      .then(
        (body: { razorpay_payment_id?: string }) => body.razorpay_payment_id && taken.push(body.razorpay_payment_id),
      )
      .catch(() => undefined);
  });
  return taken;
}

/** Opens the product from the list, picks `size` and presses Add to Cart `units` times. */
async function addToCart(page: Page, name: string, size: string, units: number) {
  await page.goto('/products');
  await page.getByRole('article', { name }).getByRole('link', { name }).click();
  await page.getByRole('heading', { name, level: 1 }).waitFor();
  await page.getByRole('group', { name: 'Size' }).getByRole('button', { name: size, exact: true }).click();
  const add = page.getByRole('button', { name: 'Add to Cart' });
  const notice = page.getByRole('complementary', { name: 'Added to cart' });
  for (let n = 1; n <= units; n++) {
    await add.click();
    await notice.getByText(`Added! (${n} total)`).waitFor();
  }
  await page.getByRole('link', { name: 'Cart (1 item)' }).waitFor();
}

/** Opens checkout and fills what a guest types: contact, then the address. */
async function fillCheckout(page: Page, contact: { name: string; email: string; phone: string }) {
  await page.goto('/checkout');
  await fillLabelled(page, {
    'Name *': contact.name,
    'Email *': contact.email,
    'Phone *': contact.phone,
    'Address *': '12 MG Road, Indiranagar',
    City: 'Bengaluru',
    State: 'Karnataka',
    'Pincode *': '560038',
  });
}

/**
 * Presses Pay and answers once the dialog is open and the shop has been told so (dialog-opened): the dialog. The
 * page must show no refusal saying nothing is left.
 */
async function openDialog(page: Page) {
  const opened = page.waitForResponse((r) => r.url().endsWith('/api/payment/dialog-opened'));
  opened.catch(() => undefined); // awaited below only once the dialog is there
  await payButton(page).click();
  const dialog = sandboxDialog(page);
  const refusal = page.getByRole('list', { name: 'Notifications' }).getByRole('alert');
  await dialog.or(refusal).first().waitFor({ timeout: 15_000 });
  if ((await dialog.count()) === 0) {
    await screenshot(page, 'checkout-retries-refused');
    throw new Error(`Pay was refused instead of opening the dialog: ${await refusal.first().textContent()}`);
  }
  expect((await opened).ok(), 'dialog-opened answered').toBe(true);
  expect(await page.getByText(ZERO_LEFT).count(), 'no "only has 0 item(s)" refusal').toBe(0);
  return dialog;
}

/**
 * Another shopper's view of the product page, read again until `inStock` holds or `withinMs` passes: the time it
 * took, or an error saying what the page showed.
 */
async function productShowsStock(page: Page, name: string, size: string, inStock: boolean, withinMs: number) {
  const started = Date.now();
  const deadline = started + withinMs;
  const sizeButton = page.getByRole('group', { name: 'Size' }).getByRole('button', { name: size, exact: true });
  for (;;) {
    await page.reload();
    await page.getByRole('heading', { name, level: 1 }).waitFor();
    const outOfStock = (await page.getByText('Out of Stock', { exact: true }).count()) > 0;
    const sizeOffered = await sizeButton.isEnabled();
    if (outOfStock === !inStock && sizeOffered === inStock) return Date.now() - started;
    if (Date.now() > deadline)
      throw new Error(
        `${name} after ${Date.now() - started} ms: Out of Stock ${outOfStock}, size ${size} offered ${sizeOffered}; wanted in stock ${inStock}`,
      );
    await page.waitForTimeout(100); // between page loads only: the deadline above bounds the wait
  }
}

/** Pays in the open dialog and waits for the confirmation page of the order. */
async function payInDialog(page: Page) {
  await sandboxDialog(page).getByRole('button', { name: 'Pay', exact: true }).click();
  await page.waitForURL(CONFIRMATION_URL, { timeout: 30_000 });
  await notification(page, 'Payment successful! Order placed.').waitFor();
  await page.getByRole('main').getByRole('heading', { name: 'Thank you for your order!' }).waitFor({ timeout: 20_000 });
  expect(await storedCart(page)).toEqual([]);
}

/**
 * Two tabs of one buyer (one browser context, one guest cookie) at the given widths: tab A opens the payment dialog
 * for one unit of `name` in `size`, then tab B checks out and pays (its checkout replaces tab A's), so the buyer has
 * one order. Tab A's dialog stays open. `paid`: every payment the dialogs took.
 */
async function tabBPaysWhileTabAWaits(
  name: string,
  size: string,
  contact: { name: string; email: string; phone: string },
  widths: { a: { width: number; height: number }; b: { width: number; height: number } },
) {
  const { context, page: tabA } = await shop.visit(widths.a);
  const paid = paymentsTakenIn(context);
  const tabB = await context.newPage();
  await tabB.setViewportSize(widths.b);
  await addToCart(tabA, name, size, 1);
  await fillCheckout(tabA, contact);
  await openDialog(tabA);
  await fillCheckout(tabB, contact);
  await openDialog(tabB);
  await payInDialog(tabB);
  expect(await ordersOf(contact.email)).toHaveLength(1);
  return { context, tabA, paid };
}

/**
 * Tab A pays in its still-open dialog when nothing is left for it: it is told, and the payment is refunded. Every
 * payment of the buyer is then exactly one order or one refund, and `size` of `name` is sold out, never below 0.
 */
async function tabAPaysAndIsRefunded(tabA: Page, paid: string[], email: string, name: string, size: string) {
  await sandboxDialog(tabA).getByRole('button', { name: 'Pay', exact: true }).click();
  await expect.poll(() => paid.length, { timeout: 15_000 }).toBe(2);
  await notification(tabA, 'Payment verification failed').waitFor({ timeout: 20_000 });
  await expect
    .poll(async () => (await refunds()).filter((r) => r.customerEmail === email).length, { timeout: 20_000 })
    .toBe(1);
  const orders = await ordersOf(email);
  const refunded = (await refunds()).filter((r) => r.customerEmail === email);
  expect(orders).toHaveLength(1);
  expect([...orders, ...refunded].map((o) => o.razorpayPaymentId).sort()).toEqual([...paid].sort());
  await expectStockNotBelowZero(name, size, 0);
}

describe('checkout retries in the browser (issue 22)', () => {
  it('cancel, then pay again at once: the whole stock of a product is bought; another shopper saw it back right after the cancel', async () => {
    const name = 'Mustard Kanjivaram Saree';
    const size = 'Free Size';
    const before = await productNamed(name);
    const units = before.sizeQuantities[size]!;
    expect(units).toBe(before.quantity); // the whole stock is in this one size
    const email = `cancel-${Date.now()}@example.in`;

    const { context, page } = await shop.visit(VIEWPORTS.desktop);
    const paid = paymentsTakenIn(context);
    const other = await shop.visit(VIEWPORTS.phone);
    await addToCart(page, name, size, units);
    await fillCheckout(page, { name: 'Meera Iyer', email, phone: '+91 98000 00021' });

    const dialog = await openDialog(page);
    await screenshot(page, 'checkout-retries-cancel-dialog');
    // While the dialog is open the whole stock is held: another shopper sees it sold out.
    await other.page.goto(`/products/${before.id}`);
    await productShowsStock(other.page, name, size, false, 5_000);

    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await notification(page, 'Payment cancelled').waitFor();
    await page.getByText('Your cart is kept; you can pay again.').waitFor();
    expect(await storedCart(page)).toHaveLength(1);
    // Right after the cancel, the stock is back for everyone.
    const tookMs = await productShowsStock(other.page, name, size, true, RELEASED_WITHIN_MS);
    await screenshot(other.page, 'checkout-retries-cancel-other-shopper');
    expect(tookMs).toBeLessThanOrEqual(RELEASED_WITHIN_MS);
    await atBothWidths(page, 'checkout-retries-after-cancel', () => payButton(page).waitFor());
    expect(await payButton(page).isEnabled()).toBe(true);

    // Pay again at once: the dialog opens (nothing of the first checkout blocks it), and the order is placed.
    await openDialog(page);
    await payInDialog(page);
    await screenshot(page, 'checkout-retries-cancel-confirmation');

    const orders = await ordersOf(email);
    expect(orders).toHaveLength(1);
    const line = page.getByRole('main').getByRole('list', { name: 'Items' }).getByRole('listitem');
    expect(await line.textContent()).toContain(`Qty ${units}`);
    expect(orders[0]!.items.reduce((sum, item) => sum + item.orderedQuantity, 0)).toBe(units);
    expect(paid).toEqual([orders[0]!.razorpayPaymentId]);
    const after = await productNamed(name);
    expect(after.sizeQuantities[size]).toBe(0);
    expect(after.quantity).toBe(0);
    await productShowsStock(other.page, name, size, false, 5_000);
    await other.context.close();
    await context.close();
  });

  it('fail, then pay again: from the page after closing the dialog, and in the dialog after a second failure', async () => {
    const name = 'Rani Pink Banarasi Saree';
    const size = 'Free Size';
    const before = await productNamed(name);
    const units = before.sizeQuantities[size]!;
    const email = `fail-${Date.now()}@example.in`;

    const { context, page } = await shop.visit(VIEWPORTS.phone);
    const paid = paymentsTakenIn(context);
    const other = await shop.visit(VIEWPORTS.desktop);
    await other.page.goto(`/products/${before.id}`);
    await addToCart(page, name, size, units);
    await fillCheckout(page, { name: 'Kiran Shah', email, phone: '+91 98000 00022' });

    // Fail: the provider's reason, the stock back for everyone while the dialog still offers a retry.
    let dialog = await openDialog(page);
    await productShowsStock(other.page, name, size, false, 5_000);
    await dialog.getByRole('button', { name: 'Fail' }).click();
    await notification(page, 'Payment failed').waitFor();
    await page.getByText('Payment failed (sandbox)', { exact: true }).waitFor();
    await dialog.getByText('Pay to try again, or Cancel.', { exact: false }).waitFor();
    await screenshot(page, 'checkout-retries-failed-dialog');
    await productShowsStock(other.page, name, size, true, RELEASED_WITHIN_MS);

    // Closed, then Pay on the page again at once: the dialog opens.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await notification(page, 'Payment cancelled').waitFor();
    expect(await storedCart(page)).toHaveLength(1);
    await atBothWidths(page, 'checkout-retries-after-fail', () => payButton(page).waitFor());
    dialog = await openDialog(page);

    // Fails again, and the shopper retries in the same dialog: the stock is still there, so the order is placed.
    await dialog.getByRole('button', { name: 'Fail' }).click();
    await dialog.getByText('Pay to try again, or Cancel.', { exact: false }).waitFor();
    await productShowsStock(other.page, name, size, true, RELEASED_WITHIN_MS);
    await payInDialog(page);
    // Paid: the failed attempt's notice is withdrawn, not left beside 'Payment successful! Order placed.'
    const notices = page.getByRole('list', { name: 'Notifications' });
    expect(await notices.getByText('Payment failed', { exact: true }).count()).toBe(0);
    await screenshot(page, 'checkout-retries-fail-confirmation');

    const orders = await ordersOf(email);
    expect(orders).toHaveLength(1);
    expect(orders[0]!.items.reduce((sum, item) => sum + item.orderedQuantity, 0)).toBe(units);
    expect(paid).toEqual([orders[0]!.razorpayPaymentId]);
    expect((await refunds()).filter((r) => r.customerEmail === email)).toEqual([]);
    const after = await productNamed(name);
    expect(after.sizeQuantities[size]).toBe(0);
    await productShowsStock(other.page, name, size, false, 5_000);
    await other.context.close();
    await context.close();
  });

  it("reload mid-dialog, then pay for the last unit of size M: the buyer's own abandoned hold never blocks them", async () => {
    const name = 'Denim Jacket';
    const size = 'M';
    const before = await productNamed(name);
    // The last unit of size M (the other sizes as they were): the buyer's abandoned checkout holds it.
    await setSizeStock(before, size, 1);
    const email = `reload-${Date.now()}@example.in`;
    const contact = { name: 'Arjun Nair', email, phone: '+91 98000 00023' };

    const { context, page } = await shop.visit(VIEWPORTS.phone);
    const paid = paymentsTakenIn(context);
    await addToCart(page, name, size, 1);
    await fillCheckout(page, contact);
    await openDialog(page);
    await screenshot(page, 'checkout-retries-reload-dialog');
    expect((await productNamed(name)).sizeQuantities[size]).toBe(0); // the last unit, held by the open dialog

    await page.reload();
    await page.getByRole('heading', { name: 'Checkout', level: 1 }).waitFor();
    expect(await sandboxDialog(page).count()).toBe(0);
    expect(await storedCart(page)).toHaveLength(1);
    await fillCheckout(page, contact);
    await openDialog(page);
    await payInDialog(page);
    await atBothWidths(page, 'checkout-retries-reload-confirmation', () =>
      page.getByRole('main').getByRole('heading', { name: 'Thank you for your order!' }).waitFor(),
    );

    const orders = await ordersOf(email);
    expect(orders).toHaveLength(1);
    expect(orders[0]!.items).toMatchObject([{ Product: { name }, orderedQuantity: 1, size }]);
    expect(paid).toEqual([orders[0]!.razorpayPaymentId]);
    // The abandoned checkout was replaced by the new one (its unit went back to be bought), never sold twice.
    await expectStockNotBelowZero(name, size, 0);
    await context.close();
  });

  it('two tabs of one buyer, the last unit: tab A has the dialog open, tab B pays; A then pays too and is refunded', async () => {
    const name = 'Olive Chino Trousers';
    const size = 'XL';
    await setSizeStock(await productNamed(name), size, 1);
    const email = `tabs-last-${Date.now()}@example.in`;
    const contact = { name: 'Meera Iyer', email, phone: '+91 98000 00027' };

    // Tab A's checkout holds the last unit; tab B, the same buyer, may still pay for it (no 'only has 0').
    const { context, tabA, paid } = await tabBPaysWhileTabAWaits(name, size, contact, {
      a: VIEWPORTS.desktop,
      b: VIEWPORTS.phone,
    });
    await tabAPaysAndIsRefunded(tabA, paid, email, name, size);
    await context.close();
  });

  it('two tabs of one buyer: tab B pays while tab A has the dialog open; A then pays too and, with stock left, gets its own order', async () => {
    const name = 'Navy Nehru Jacket';
    const size = 'S';
    await setSizeStock(await productNamed(name), size, 2);
    const email = `tabs-order-${Date.now()}@example.in`;
    const contact = { name: 'Divya Menon', email, phone: '+91 98000 00024' };

    // Tab B (same cart, same guest cookie) checks out and pays: its checkout replaces tab A's.
    const { context, tabA, paid } = await tabBPaysWhileTabAWaits(name, size, contact, {
      a: VIEWPORTS.phone,
      b: VIEWPORTS.desktop,
    });
    expect((await productNamed(name)).sizeQuantities[size]).toBe(1);

    // Tab A's dialog is still open and the shopper pays there: its ended checkout takes the unit still on sale.
    await payInDialog(tabA);
    await screenshot(tabA, 'checkout-retries-tabs-a-order');

    const orders = await ordersOf(email);
    expect(orders).toHaveLength(2);
    expect(orders.map((o) => o.razorpayPaymentId).sort()).toEqual([...paid].sort());
    expect((await refunds()).filter((r) => r.customerEmail === email)).toEqual([]);
    await expectStockNotBelowZero(name, size, 0);
    await context.close();
  });

  it('two tabs of one buyer: tab B pays, another shopper buys the last unit, then tab A pays: refunded and told so, never a second order', async () => {
    const name = 'Black Bomber Jacket';
    const size = 'S';
    await setSizeStock(await productNamed(name), size, 2);
    const email = `tabs-refund-${Date.now()}@example.in`;
    const contact = { name: 'Farah Khan', email, phone: '+91 98000 00025' };

    const { context, tabA, paid } = await tabBPaysWhileTabAWaits(name, size, contact, {
      a: VIEWPORTS.desktop,
      b: VIEWPORTS.phone,
    });

    // Another shopper buys the last unit.
    const otherEmail = `tabs-other-${Date.now()}@example.in`;
    const other = await shop.visit(VIEWPORTS.desktop);
    const otherPaid = paymentsTakenIn(other.context);
    await addToCart(other.page, name, size, 1);
    await fillCheckout(other.page, { name: 'Sanjay Rao', email: otherEmail, phone: '+91 98000 00026' });
    await openDialog(other.page);
    await payInDialog(other.page);
    expect((await productNamed(name)).sizeQuantities[size]).toBe(0);

    // Tab A's dialog is still open: the shopper pays there. Nothing is left for it: the payment is refunded, and
    // every payment is an order or a refund, each exactly once; the stock never went below 0.
    await tabAPaysAndIsRefunded(tabA, paid, email, name, size);
    await tabA.getByText(/This payment could not be accepted; it will be refunded\./).waitFor();
    await screenshot(tabA, 'checkout-retries-tabs-a-refunded');
    expect(tabA.url()).not.toMatch(CONFIRMATION_URL);
    expect((await ordersOf(otherEmail)).map((o) => o.razorpayPaymentId)).toEqual(otherPaid);
    await other.context.close();
    await context.close();
  });
});
