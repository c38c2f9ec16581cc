import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { atBothWidths, fillLabelled, rupees, submitLogin, useShopAndBrowser, VIEWPORTS } from '../support/browser.ts';

// Issue 22 item 4: after paying, every buyer (guest or signed in) lands on the order's confirmation page, and a
// guest comes back to it later through a link only they hold, in a browser that never signed in.

const shop = useShopAndBrowser();

type Order = {
  orderNumber: string;
  customerEmail: string;
  totalAmount: number;
  razorpayPaymentId: string;
  deliveryStatus: string;
};

const CONFIRMATION_URL = /\/order-confirmation#.+/;
const main = (page: Page) => page.getByRole('main');
const sandboxDialog = (page: Page) => page.getByRole('dialog', { name: 'Razorpay sandbox: test payment' });

/** Puts the linen shirt in size M in the cart, fills checkout (contact too, unless prefilled) and pays. */
async function buyLinenShirt(page: Page, contact?: { name: string; email: string; phone: string }) {
  await page.goto('/products');
  const card = page.getByRole('article', { name: 'Classic White Linen Shirt' });
  await card.getByRole('link', { name: 'Classic White Linen Shirt' }).click();
  await page.getByRole('heading', { name: 'Classic White Linen Shirt', level: 1 }).waitFor();
  await page.getByRole('group', { name: 'Size' }).getByRole('button', { name: 'M', exact: true }).click();
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await page.getByRole('link', { name: 'Cart (1 item)' }).waitFor();
  await page.goto('/checkout');
  if (contact) await fillLabelled(page, { 'Name *': contact.name, 'Email *': contact.email, 'Phone *': contact.phone });
  await fillLabelled(page, {
    'Address *': '12 MG Road, Indiranagar',
    City: 'Bengaluru',
    State: 'Karnataka',
    'Pincode *': '560038',
  });
  await page.getByRole('button', { name: /^Pay ₹/ }).click();
  await sandboxDialog(page).getByRole('button', { name: 'Pay', exact: true }).click();
  await page.waitForURL(CONFIRMATION_URL, { timeout: 30_000 });
}

/** The order the admin list holds for this e-mail (what the page must show). */
async function orderOf(email: string): Promise<Order> {
  const all = await shop.api<Order[]>('/orders/admin/all', { token: await shop.adminToken() });
  const order = all.find((o) => o.customerEmail === email);
  if (!order) throw new Error(`no order for ${email}`);
  return order;
}

const setStatus = async (orderNumber: string, deliveryStatus: string) =>
  shop.api(`/orders/admin/${orderNumber}/status`, {
    method: 'PATCH',
    token: await shop.adminToken(),
    body: { deliveryStatus },
  });

/** The confirmation page shows `order` in full: number, payment reference, line, total, address, statuses. */
async function expectConfirmation(page: Page, order: Order, status: string) {
  const card = main(page).getByRole('article', { name: `Order ${order.orderNumber}` });
  await card.waitFor({ timeout: 20_000 });
  await main(page).getByRole('heading', { name: 'Thank you for your order!' }).waitFor();
  const fact = (label: string) => main(page).getByText(label, { exact: true }).locator('xpath=following-sibling::dd');
  expect(await fact('Order number').textContent()).toBe(order.orderNumber);
  expect(await fact('Payment reference').textContent()).toBe(order.razorpayPaymentId);
  const line = card.getByRole('list', { name: 'Items' }).getByRole('listitem');
  expect(await line.count()).toBe(1);
  expect(await line.textContent()).toContain('Classic White Linen Shirt');
  expect(await line.textContent()).toContain('Size M · White · Qty 1');
  expect(await line.textContent()).toContain('₹1,499.00');
  const total = card.getByText('Total', { exact: true }).locator('xpath=following-sibling::dd');
  expect(await total.textContent()).toBe(rupees(order.totalAmount));
  await card.getByText('12 MG Road, Indiranagar').waitFor();
  await card.getByText(/560038/).waitFor();
  const payment = card.getByText('Payment', { exact: true }).locator('xpath=following-sibling::dd');
  expect(await payment.textContent()).toBe(`Paid (${order.razorpayPaymentId})`);
  await card.getByText(status, { exact: true }).waitFor({ timeout: 20_000 });
}

describe('order confirmation page in the browser', () => {
  it('a guest pays and sees the order; the saved link opens it in a fresh browser, follows its status, and a tampered link finds nothing', async () => {
    const email = `guest-${Date.now()}@example.in`;
    const { context, page } = await shop.visit(VIEWPORTS.desktop);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await buyLinenShirt(page, { name: 'Asha Rao', email, phone: '+91 98000 00011' });

    const order = await orderOf(email);
    await expectConfirmation(page, order, 'Processing');
    // A guest has no My Orders: the page offers none.
    expect(await main(page).getByRole('link', { name: 'My Orders' }).count()).toBe(0);

    // The link to keep, and its copy button.
    await main(page).getByText('Save this link to see your order later').waitFor();
    const link = await main(page).getByRole('textbox', { name: 'Order link' }).inputValue();
    expect(link).toBe(page.url());
    await main(page).getByRole('button', { name: 'Copy link' }).click();
    await main(page).getByText('Link copied').waitFor();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(link);

    await atBothWidths(page, 'order-confirmation-guest', () =>
      main(page)
        .getByRole('article', { name: `Order ${order.orderNumber}` })
        .waitFor(),
    );
    await context.close();

    // Later, in another browser with no session at all: the link alone opens the order.
    const later = await shop.visit(VIEWPORTS.phone);
    await later.page.goto(link);
    await expectConfirmation(later.page, order, 'Processing');
    expect(await later.page.evaluate<string | null>('window.localStorage.getItem("token")')).toBeNull();
    // The status an admin sets shows on the open page by itself.
    await setStatus(order.orderNumber, 'Out for Delivery');
    await main(later.page).getByText('Out for Delivery', { exact: true }).waitFor({ timeout: 25_000 });
    await later.context.close();

    // A link whose token was changed by one character: no order, and no hint that one exists.
    const token = link.slice(link.indexOf('#') + 1);
    const tampered = `${link.slice(0, link.indexOf('#') + 1)}${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    const stranger = await shop.visit(VIEWPORTS.desktop);
    await stranger.page.goto(tampered);
    await main(stranger.page).getByRole('heading', { name: 'Order not found' }).waitFor();
    expect(await main(stranger.page).getByText(order.orderNumber).count()).toBe(0);
    await stranger.context.close();
  });

  it("a signed-in shopper's confirmation page links to My Orders and shows status changes live", async () => {
    const email = `shopper-${Date.now()}@example.in`;
    await shop.api('/auth/register', {
      body: { name: 'Ravi Kumar', email, phone: '+919800000012', password: 'secret123' },
    });
    const { context, page } = await shop.visit(VIEWPORTS.desktop);
    await page.goto('/login');
    await submitLogin(page, { email, password: 'secret123' });
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await buyLinenShirt(page);

    const order = await orderOf(email);
    await expectConfirmation(page, order, 'Processing');
    await main(page).getByText('Live updates on').waitFor({ timeout: 15_000 });
    await setStatus(order.orderNumber, 'Delivered');
    await main(page).getByText('Delivered', { exact: true }).waitFor({ timeout: 10_000 });

    await atBothWidths(page, 'order-confirmation-shopper', () =>
      main(page).getByRole('link', { name: 'My Orders' }).waitFor(),
    );
    await main(page).getByRole('link', { name: 'My Orders' }).click();
    await page.waitForURL('**/my-orders');
    await page.getByRole('article', { name: `Order ${order.orderNumber}` }).waitFor();
    await context.close();
  });
});
