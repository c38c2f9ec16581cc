import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { atBothWidths, fillLabelled, rupees, useShopAndBrowser, VIEWPORTS } from '../support/browser.ts';

// Issue 10, browser tests (a) and (e): a shopper buys through the real web app, the real API and the
// built-in Razorpay sandbox's checkout.js dialog, against the embedded default with the demo catalog.

const shop = useShopAndBrowser();

type Json = Record<string, unknown>;

/** The delivery charges the server quotes for an order total (shipping plus delivery). */
async function chargesFor(orderTotal: number): Promise<number> {
  const quote = (await shop.api('/delivery/calculate', { body: { orderTotal } })) as {
    deliveryCharge: number;
    shippingCharge: number;
  };
  return quote.deliveryCharge + quote.shippingCharge;
}

/** A summary row's label and amount ('Total ₹1,548.00'), found by its label. */
const summaryRow = (summary: Locator, label: string) =>
  summary
    .getByText(label, { exact: true })
    .locator('xpath=..')
    .evaluate((row: { children: ArrayLike<{ textContent: string | null }> }) =>
      Array.from(row.children, (cell) => cell.textContent?.trim()).join(' '),
    );

const notification = (page: Page, title: string) => page.getByText(title, { exact: true }).first();
const storedCart = (page: Page) => page.evaluate<unknown[]>('JSON.parse(window.localStorage.getItem("cart") || "[]")');
const sandboxDialog = (page: Page) => page.getByRole('dialog', { name: 'Razorpay sandbox: test payment' });

/** Fills the checkout's shipping form (the fields a guest must type; a signed-in shopper's contact is prefilled). */
async function fillShipping(page: Page, contact?: { name: string; email: string; phone: string }) {
  if (contact) await fillLabelled(page, { 'Name *': contact.name, 'Email *': contact.email, 'Phone *': contact.phone });
  await fillLabelled(page, {
    'Address *': '12 MG Road, Indiranagar',
    City: 'Bengaluru',
    State: 'Karnataka',
    'Pincode *': '560038',
  });
}

describe('shopper checkout in the browser', () => {
  it('(a) searches, filters, picks a size, adds to cart, signs up, checks out with a coupon through the payment dialog and sees the order in My Orders', async () => {
    // The admin creates the coupon and sets delivery charges through the API: shipping ₹49 below ₹2,000,
    // delivery ₹30 below ₹1,400, so the ₹1,499 cart pays shipping only and, after the 10% coupon, both.
    const adminToken = await shop.adminToken();
    await shop.api('/delivery/settings', {
      method: 'PUT',
      token: adminToken,
      body: {
        isEnabled: true,
        freeShippingThreshold: 2000,
        shippingCharge: 49,
        freeDeliveryThreshold: 1400,
        deliveryCharge: 30,
      },
    });
    expect(await chargesFor(1499)).toBe(49);
    expect(await chargesFor(1349.1)).toBe(79);
    await shop.api('/coupons', {
      token: adminToken,
      body: { code: 'BROWSER10', discountType: 'percentage', discountValue: 10, minOrderAmount: 0, isActive: true },
    });

    const { context, page } = await shop.visit(VIEWPORTS.desktop);
    await page.goto('/products');

    // Search (name or description): the men's shirt and a women's dress; then only the men's.
    await page.getByLabel('Search products').fill('linen');
    const linenShirt = page.getByRole('article', { name: 'Classic White Linen Shirt' });
    const linenDress = page.getByRole('article', { name: 'Teal Linen Shirt Dress' });
    await linenShirt.waitFor();
    await linenDress.waitFor();
    const men = page.getByRole('navigation', { name: 'Categories' }).getByRole('button', { name: 'Men', exact: true });
    await men.click();
    await linenDress.waitFor({ state: 'detached' });
    expect(await men.getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByRole('article').count()).toBe(1);

    // Open the product, pick a size, add to cart: the notice and the badge.
    await linenShirt.getByRole('link', { name: 'Classic White Linen Shirt' }).click();
    await page.getByRole('heading', { name: 'Classic White Linen Shirt', level: 1 }).waitFor();
    const addToCart = page.getByRole('button', { name: 'Add to Cart' });
    expect(await addToCart.isDisabled()).toBe(true);
    await page.getByRole('group', { name: 'Size' }).getByRole('button', { name: 'M', exact: true }).click();
    await addToCart.click();
    const notice = page.getByRole('complementary', { name: 'Added to cart' });
    await notice.getByText('Added! (1 total)').waitFor();
    await notice.getByText('Classic White Linen Shirt').waitFor();
    await notice.getByText('₹1,499.00 x 1').waitFor();
    await page.getByRole('link', { name: 'Cart (1 item)' }).waitFor();
    expect(await page.getByTestId('cart-badge').textContent()).toBe('1');

    // The cart: shipping and delivery from the server (each or Free), named as checkout names them, and the total.
    await notice.getByRole('link', { name: 'View' }).click();
    await page.waitForURL('**/cart');
    const cartSummary = page.getByRole('complementary', { name: 'Order summary' });
    await cartSummary.getByText('₹49.00', { exact: true }).waitFor();
    expect(await summaryRow(cartSummary, 'Subtotal')).toBe('Subtotal ₹1,499.00');
    expect(await summaryRow(cartSummary, 'Shipping')).toBe('Shipping ₹49.00');
    expect(await summaryRow(cartSummary, 'Delivery')).toBe('Delivery Free');
    expect(await summaryRow(cartSummary, 'Total')).toBe('Total ₹1,548.00');
    await atBothWidths(page, 'cart', () => cartSummary.getByText('Total', { exact: true }).waitFor());

    // Sign up, coming back to checkout.
    const email = `browser-${Date.now()}@example.in`;
    await page.goto('/signup?redirectTo=/checkout');
    await page.getByLabel('Name').fill('Asha Rao');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Phone').fill('+91 98000 00001');
    await page.getByLabel('Password', { exact: true }).fill('secret123');
    await page.getByLabel('Confirm password').fill('secret123');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL('**/checkout');

    // Checkout: contact prefilled from the profile, the rest typed.
    await expect.poll(() => page.getByLabel('Name *').inputValue()).toBe('Asha Rao');
    expect(await page.getByLabel('Email *').inputValue()).toBe(email);
    expect(await page.getByLabel('Phone *').inputValue()).toBe('+91 98000 00001');
    await fillShipping(page);

    // The coupon box: empty code refused, then the code applied (trimmed and upper-cased) and shown.
    await page.getByRole('button', { name: 'Apply' }).click();
    await notification(page, 'Please enter a coupon code').waitFor();
    await page.getByLabel('Coupon code').fill('  browser10 ');
    await page.getByRole('button', { name: 'Apply' }).click();
    await notification(page, 'Coupon applied!').waitFor();
    const applied = page.getByRole('group', { name: 'Applied coupon' });
    await applied.getByText('BROWSER10').waitFor();
    await applied.getByText(/₹149\.90 off/).waitFor();
    await page.getByText('You saved ₹149.90').first().waitFor();

    // The summary: charges on the subtotal after discount, and the total to pay.
    const total = 1349.1 + 79;
    const summary = page.getByRole('complementary', { name: 'Order summary' });
    await summary.getByText(rupees(total), { exact: true }).waitFor();
    expect(await summaryRow(summary, 'Subtotal')).toBe('Subtotal ₹1,499.00');
    expect(await summaryRow(summary, 'Discount (BROWSER10)')).toBe('Discount (BROWSER10) -₹149.90');
    expect(await summaryRow(summary, 'Shipping')).toBe('Shipping ₹49.00');
    expect(await summaryRow(summary, 'Delivery')).toBe('Delivery ₹30.00');
    expect(await summaryRow(summary, 'Total')).toBe('Total ₹1,428.10');
    await page
      .getByRole('note')
      .getByText(/Razorpay sandbox/)
      .waitFor();
    await atBothWidths(page, 'checkout', () => summary.getByText('Total', { exact: true }).waitFor());

    // Pay in the sandbox's dialog.
    await page.getByRole('button', { name: `Pay ${rupees(total)}` }).click();
    const dialog = sandboxDialog(page);
    await dialog.waitFor();
    await dialog.getByText(rupees(total), { exact: true }).waitFor(); // the server's price of the order
    await dialog.getByRole('button', { name: 'Pay', exact: true }).click();

    // Paid: the cart is cleared and the order's confirmation page opens; its My Orders link shows the order there.
    await page.waitForURL(/\/order-confirmation#.+/, { timeout: 30_000 });
    await notification(page, 'Payment successful! Order placed.').waitFor();
    expect(await storedCart(page)).toEqual([]);
    expect(await page.getByTestId('cart-badge').count()).toBe(0);
    await page.getByRole('main').getByRole('link', { name: 'My Orders' }).click();
    await page.waitForURL('**/my-orders');

    const token = await page.evaluate<string | null>('window.localStorage.getItem("token")');
    const orders = (await shop.api('/orders', { token })) as Json[];
    expect(orders).toHaveLength(1);
    const order = orders[0]!;
    expect(order).toMatchObject({ customerEmail: email, customerName: 'Asha Rao' });
    expect(Number(order.totalAmount)).toBeCloseTo(total, 2);
    await page.getByText(String(order.orderNumber)).first().waitFor({ timeout: 15_000 });

    await context.close();
  });

  it('(e) a cancelled and a failed payment say so and keep the cart', async () => {
    const { context, page } = await shop.visit(VIEWPORTS.desktop);
    await page.goto('/products');
    const card = page.getByRole('article', { name: 'Charcoal Crew T-Shirt' });
    await card.getByRole('button', { name: 'Add to Cart' }).click();
    await page.getByRole('link', { name: 'Cart (1 item)' }).waitFor();

    await page.goto('/checkout');
    await fillShipping(page, { name: 'Ravi Kumar', email: 'ravi@example.in', phone: '+91 98000 00002' });
    const pay = page.getByRole('button', { name: /^Pay ₹/ });
    const dialog = sandboxDialog(page);

    // Cancelled: the dialog is dismissed, 'Payment cancelled', the cart stays.
    await pay.click();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await notification(page, 'Payment cancelled').waitFor();
    expect(await dialog.count()).toBe(0);
    expect(page.url()).toMatch(/\/checkout$/);
    expect(await storedCart(page)).toHaveLength(1);
    expect(await page.getByTestId('cart-badge').textContent()).toBe('1');

    // Failed: the provider's description under 'Payment failed'; the cart stays.
    await pay.click();
    await dialog.getByRole('button', { name: 'Fail' }).click();
    await notification(page, 'Payment failed').waitFor();
    await page.getByText('Payment failed (sandbox)', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await storedCart(page)).toHaveLength(1);
    expect(page.url()).toMatch(/\/checkout$/);

    // Still on checkout with the line, ready to pay again.
    await page.getByRole('complementary', { name: 'Order summary' }).getByText('Charcoal Crew T-Shirt').waitFor();
    expect(await pay.isEnabled()).toBe(true);
    await context.close();
  });
});
