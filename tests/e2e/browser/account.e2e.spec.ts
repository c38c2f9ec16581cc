import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { sandboxPay } from '../../../services/razorpay-sandbox/src/sandbox-pay.ts';
import { atBothWidths, fillLabelled, submitLogin, useShopAndBrowser, VIEWPORTS } from '../support/browser.ts';

// Issue 10, browser test (d) and the account screens: the login guard's round trip, the profile and the
// address book persisting across a reload, /my-orders showing the shopper's order with its badge changing
// live when the admin changes its status, and a refused token sending the user to /login. Against the
// embedded default with the demo catalog, through the real web app and API.

const shop = useShopAndBrowser();

type Account = { user: { id: string; name: string; email: string }; token: string };

let accounts = 0;
async function registerShopper(name: string): Promise<Account & { password: string }> {
  const password = 'kapda-pass-1';
  const email = `account-${Date.now()}-${++accounts}@example.in`;
  const account = await shop.api<Account>('/auth/register', {
    body: { name, email, phone: '+919800000011', password },
  });
  return { ...account, password };
}

/** Places a paid order for a signed-in shopper through the API: create-order, sandbox pay, verify. */
async function placeOrder(account: Account): Promise<string> {
  type Product = { id: string; price: number; quantity: number; sizeQuantities: Record<string, number> };
  const products = await shop.api<Product[]>('/products');
  const product = products.find(
    (p) => p.quantity > 0 && Object.values(p.sizeQuantities ?? {}).some((units) => units > 0),
  );
  if (!product) throw new Error('The demo catalog has no product in stock');
  const size = Object.entries(product.sizeQuantities).find(([, units]) => units > 0)?.[0] ?? null;
  const orderData = {
    address: '7 Residency Road, Bengaluru',
    pincode: '560025',
    customerName: account.user.name,
    customerPhone: '+919800000011',
    customerEmail: account.user.email,
    totalAmount: product.price,
    items: [{ productId: product.id, quantity: 1, size, color: null }],
    couponCode: null,
    discountAmount: 0,
    shippingCharge: 0,
    deliveryCharge: 0,
  };
  const created = await shop.api<{ id: string }>('/payment/create-order', {
    token: account.token,
    body: { amount: product.price, currency: 'INR', receipt: `rcpt_${Date.now()}`, orderData },
  });
  const payment = await sandboxPay(`${shop.base}/razorpay-sandbox`, created.id);
  const verified = await shop.api<{ orderNumber: string }>('/payment/verify', {
    token: account.token,
    body: { ...payment, orderData },
  });
  return verified.orderNumber;
}

const notification = (page: Page, title: string) => page.getByText(title, { exact: true }).first();

/** Today's calendar day in the browser's time zone (this machine's), as a date input's value `years` ago. */
async function birthdayYearsAgo(page: Page, years: number): Promise<string> {
  return page.evaluate<string, number>((ago) => {
    const now = new Date();
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${now.getFullYear() - ago}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  }, years);
}

const addressCard = (page: Page, label: string): Locator => page.getByRole('listitem', { name: `${label} address` });

describe('account screens (issue 10, browser test d)', () => {
  it('a logged-out visit to /profile lands on /login and returns there after login; the profile and addresses persist across a reload', async () => {
    const shopper = await registerShopper('Meera Iyer');
    const { context, page } = await shop.visit(VIEWPORTS.desktop);

    await page.goto('/profile');
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirectTo')).toBe('/profile');
    await page.getByRole('heading', { name: 'Login' }).waitFor();

    await submitLogin(page, { email: shopper.user.email, password: shopper.password });
    await page.waitForURL((url) => url.pathname === '/profile');
    await page.getByRole('heading', { name: 'My Profile' }).waitFor();

    // Personal info: the form starts from the account, then an edit with today's day and month as birthday.
    const name = page.getByLabel('Name', { exact: true });
    await expect.poll(() => name.inputValue()).toBe('Meera Iyer');
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(shopper.user.email);
    const dob = await birthdayYearsAgo(page, 32);
    await name.fill('Meera Krishnan');
    await page.getByLabel('Phone', { exact: true }).fill('+919812345678');
    await page.getByLabel('Date of birth').fill(dob);
    await page.getByLabel('Gender').selectOption('Female');
    await page.getByRole('button', { name: 'Save Profile' }).click();
    await notification(page, 'Profile updated').waitFor();
    await page.getByText('Happy Birthday, Meera!').waitFor();
    expect(await page.getByTestId('profile-age').textContent()).toBe('32 years');

    // The answer's fresh token replaced the stored one, and it names the updated profile.
    const storedToken = await page.evaluate<string | null>('window.localStorage.getItem("token")');
    expect(storedToken).toBeTruthy();
    const me = await shop.api<{ name: string; dob: string; gender: string }>('/auth/me', { token: storedToken });
    expect(me).toMatchObject({ name: 'Meera Krishnan', dob, gender: 'Female' });
    const storedUser = await page.evaluate<{ name: string }>('JSON.parse(window.localStorage.getItem("user"))');
    expect(storedUser.name).toBe('Meera Krishnan');

    // Empty name is refused on the client ('name and e-mail required').
    await name.fill('');
    await page.getByRole('button', { name: 'Save Profile' }).click();
    await page.getByText('Name is required').waitFor();
    await name.fill('Meera Krishnan');

    // Address book: the first address is the default; a second one is then made the default.
    await page.getByRole('button', { name: 'Add Address' }).click();
    const form = page.getByRole('form', { name: 'New Address' });
    expect(await form.getByLabel('Label').inputValue()).toBe('Home');
    await form.getByRole('button', { name: 'Save Address' }).click();
    await form.getByText('Address line 1 is required').waitFor();
    await fillLabelled(form, {
      'Full name': 'Meera Krishnan',
      'Phone number': '+919812345678',
      'Address line 1': '14 Lavelle Road',
      City: 'Bengaluru',
      State: 'Karnataka',
      'PIN code': '560001',
    });
    await form.getByRole('button', { name: 'Save Address' }).click();
    await notification(page, 'Address added').waitFor();
    await addressCard(page, 'Home').getByText('Default', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Add Address' }).click();
    await fillLabelled(form, {
      Label: 'Work',
      'Full name': 'Meera K',
      'Phone number': '+919800000099',
      'Address line 1': 'Embassy Tech Village, Outer Ring Road',
    });
    await form.getByRole('button', { name: 'Save Address' }).click();
    await addressCard(page, 'Work').waitFor();
    expect(await addressCard(page, 'Work').getByText('Default', { exact: true }).count()).toBe(0);

    await page.getByRole('button', { name: 'Set Work address as default' }).click();
    await addressCard(page, 'Work').getByText('Default', { exact: true }).waitFor();
    await expect.poll(() => addressCard(page, 'Home').getByText('Default', { exact: true }).count()).toBe(0);

    // Everything is still there after a reload: read back from the server, not just from this page.
    await page.reload();
    await page.getByRole('heading', { name: 'My Profile' }).waitFor();
    await expect.poll(() => page.getByLabel('Name', { exact: true }).inputValue()).toBe('Meera Krishnan');
    expect(await page.getByLabel('Phone', { exact: true }).inputValue()).toBe('+919812345678');
    expect(await page.getByLabel('Date of birth').inputValue()).toBe(dob);
    expect(await page.getByLabel('Gender').inputValue()).toBe('Female');
    await page.getByText('Happy Birthday, Meera!').waitFor();
    await addressCard(page, 'Work').getByText('Default', { exact: true }).waitFor();
    await addressCard(page, 'Home').waitFor();
    expect(await addressCard(page, 'Home').getByText('Default', { exact: true }).count()).toBe(0);
    expect(await addressCard(page, 'Home').textContent()).toContain('14 Lavelle Road, Bengaluru, Karnataka - 560001');

    await atBothWidths(page, 'profile', () => page.getByRole('heading', { name: 'Saved Addresses' }).waitFor());
    await context.close();
  }, 90_000);

  it("/my-orders shows the shopper's order and its badge changes live when the admin changes the status", async () => {
    const shopper = await registerShopper('Kabir Sethi');
    const orderNumber = await placeOrder(shopper);
    const adminToken = await shop.adminToken();

    const { context, page } = await shop.visit(VIEWPORTS.desktop);
    await page.goto('/login?redirectTo=%2Fmy-orders');
    await submitLogin(page, { email: shopper.user.email, password: shopper.password });
    await page.waitForURL((url) => url.pathname === '/my-orders');

    const order = page.getByRole('article', { name: `Order ${orderNumber}` });
    await order.waitFor();
    const badge = order.locator('[data-tone]');
    expect(await badge.textContent()).toBe('Processing');
    expect(await badge.getAttribute('data-tone')).toBe('processing');
    await order.getByText('Payment').waitFor();
    expect(await order.getByText('Paid', { exact: false }).count()).toBeGreaterThan(0);
    await order.getByText('Subtotal').waitFor();
    await order.getByText('Total', { exact: true }).waitFor();
    await page.getByText('Live updates on').waitFor();

    // A marker on the window: it survives only if the page is never reloaded.
    await page.evaluate('window.__sameDocument = true');
    // The page's getComputedStyle, reached through globalThis: this file is type-checked for Node.
    type Styles = { getComputedStyle(element: unknown): { backgroundColor: string } };
    const colourOf = () =>
      badge.evaluate((element) => (globalThis as unknown as Styles).getComputedStyle(element).backgroundColor);
    // The seed's colours: processing yellow, out for delivery blue, delivered green.
    expect(await colourOf()).toBe('rgb(254, 249, 195)');

    const changes = [
      { status: 'Out for Delivery', tone: 'outForDelivery', colour: 'rgb(219, 234, 254)' },
      { status: 'Delivered', tone: 'delivered', colour: 'rgb(220, 252, 231)' },
    ];
    for (const { status, tone, colour } of changes) {
      await shop.api(`/orders/admin/${orderNumber}/status`, {
        method: 'PATCH',
        token: adminToken,
        body: { deliveryStatus: status },
      });
      await expect.poll(() => badge.textContent(), { timeout: 15_000 }).toBe(status);
      expect(await badge.getAttribute('data-tone')).toBe(tone);
      expect(await colourOf()).toBe(colour);
    }
    expect(await page.evaluate<boolean>('window.__sameDocument === true')).toBe(true);

    await atBothWidths(page, 'my-orders', () => order.waitFor());
    await context.close();
  }, 90_000);

  it('a token the API refuses (401) logs the user out and sends them to /login, remembering the page', async () => {
    const shopper = await registerShopper('Ira Menon');
    const { context, page } = await shop.visit(VIEWPORTS.phone);
    await page.goto('/login?redirectTo=%2Fmy-orders');
    await submitLogin(page, { email: shopper.user.email, password: shopper.password });
    await page.waitForURL((url) => url.pathname === '/my-orders');
    await page.getByText('You have not placed any orders yet.').waitFor();

    await page.evaluate('window.localStorage.setItem("token", "not-a-valid-token")');
    await page.reload();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirectTo')).toBe('/my-orders');
    await expect.poll(() => page.evaluate<string | null>('window.localStorage.getItem("token")')).toBeNull();
    expect(await page.evaluate<string | null>('window.localStorage.getItem("user")')).toBeNull();
    await context.close();
  }, 60_000);
});
