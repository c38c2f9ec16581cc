import { cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { buildProduct, buildUser } from '@/testing/data';
import { fakeApi, jsonResponse, requestsOf } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-with-providers';
import type { RazorpayOptions } from '../razorpay';

// The checkout route in the whole app (layout, notifications, cart and session from the store), with the
// API faked at fetch and window.Razorpay standing in for checkout.js.

const product = buildProduct({ id: 7, name: 'Linen Kurta', price: 1000, quantity: 0, sizeQuantities: { M: 3 } });
const { quantity: _stock, size: _sizes, color: _colours, ...fields } = product;
const cartLine = { ...fields, quantity: 2, size: 'M', color: null };

function startCheckout(options: { user?: boolean } = {}) {
  if (options.user) {
    window.localStorage.setItem('user', JSON.stringify(buildUser()));
    window.localStorage.setItem('token', 'token-1');
  }
  window.localStorage.setItem('cart', JSON.stringify([cartLine]));
  return renderApp({ route: '/checkout' });
}

const charges = {
  'POST /api/delivery/calculate': () => jsonResponse({ deliveryCharge: 40, shippingCharge: 0, isFreeDelivery: false }),
};

async function fillGuestForm() {
  fireEvent.change(await screen.findByLabelText('Name *', undefined, { timeout: 5000 }), {
    target: { value: 'Ravi Kumar' },
  });
  fireEvent.change(screen.getByLabelText('Email *'), { target: { value: 'ravi@example.in' } });
  fireEvent.change(screen.getByLabelText('Phone *'), { target: { value: '+91 98000 00002' } });
  fireEvent.change(screen.getByLabelText('Address *'), { target: { value: '12 MG Road' } });
  fireEvent.change(screen.getByLabelText('Pincode *'), { target: { value: '560001' } });
}

const payButton = () => screen.findByRole('button', { name: /^Pay ₹/ }, { timeout: 5000 });

/** A window.Razorpay that records its options; the test plays the dialog by calling them. */
function fakeRazorpay() {
  const opened: { options: RazorpayOptions; failed: ((response: unknown) => void)[] }[] = [];
  class FakeRazorpay {
    private readonly record: (typeof opened)[number];
    constructor(options: RazorpayOptions) {
      this.record = { options, failed: [] };
    }
    on(_event: string, callback: (response: unknown) => void) {
      this.record.failed.push(callback);
    }
    open() {
      opened.push(this.record);
    }
  }
  vi.stubGlobal('Razorpay', FakeRazorpay);
  return opened;
}

// The whole app renders here (lazy routes, several fetches): a shared, busy machine needs more time.
configure({ asyncUtilTimeout: 5000 });
describe('checkout page', { timeout: 20_000 }, () => {
  it('prefills from the profile, picks the default saved address, and prices with a coupon and delivery on the discounted subtotal', async () => {
    const fetchMock = fakeApi({
      ...charges,
      'GET /api/auth/me': () =>
        jsonResponse(buildUser({ name: 'Asha Rao', email: 'asha@example.in', phone: '+91 90000 00000' })),
      'GET /api/addresses': () =>
        jsonResponse([
          {
            id: 1,
            label: 'Home',
            name: 'Asha Rao',
            phone: '+91 90000 00000',
            addressLine1: '4 Park Street',
            city: 'Kolkata',
            state: 'West Bengal',
            zipCode: '700016',
            isDefault: true,
          },
        ]),
      'POST /api/coupons/validate': async (request) => {
        const body = (await request.json()) as { code: string };
        return body.code === 'SAVE10'
          ? jsonResponse({
              valid: true,
              coupon: { code: 'SAVE10' },
              discountAmount: 200,
              message: 'Coupon applied successfully',
            })
          : jsonResponse({ valid: false, coupon: null, discountAmount: 0, message: 'Coupon has expired' });
      },
    });
    startCheckout({ user: true });

    await screen.findByLabelText('Saved address', undefined, { timeout: 5000 });
    await waitFor(() => expect((screen.getByLabelText('Address *') as HTMLInputElement).value).toBe('4 Park Street'));
    expect((screen.getByLabelText('Name *') as HTMLInputElement).value).toBe('Asha Rao');
    expect((screen.getByLabelText('Email *') as HTMLInputElement).value).toBe('asha@example.in');
    expect((screen.getByLabelText('Pincode *') as HTMLInputElement).value).toBe('700016');
    expect((screen.getByLabelText('Saved address') as HTMLSelectElement).value).toBe('1');

    const summary = screen.getByRole('complementary', { name: 'Order summary' });
    expect(await within(summary).findByText('₹2,040.00')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('Please enter a coupon code')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Coupon code'), { target: { value: ' old5 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('Invalid coupon')).toBeTruthy();
    expect(screen.getByText('Coupon has expired')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Coupon code'), { target: { value: 'save10' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('Coupon applied!')).toBeTruthy();
    expect(screen.getByText('You saved ₹200.00')).toBeTruthy();
    expect(within(summary).getByText('-₹200.00')).toBeTruthy();
    expect(await within(summary).findByText('₹1,840.00')).toBeTruthy();
    const deliveryTotals = await Promise.all(
      requestsOf(fetchMock)
        .filter((request) => new URL(request.url).pathname === '/api/delivery/calculate')
        .map(async (request) => ((await request.clone().json()) as { orderTotal: number }).orderTotal),
    );
    expect(deliveryTotals).toEqual([2000, 1800]);

    fireEvent.click(within(summary).getByRole('button', { name: 'Remove coupon' }));
    expect(await screen.findByText('Coupon removed')).toBeTruthy();
    expect(await within(summary).findByText('₹2,040.00')).toBeTruthy();
  });

  it("refuses to pay with missing fields, then with a size that sold out meanwhile ('Size not available')", async () => {
    fakeApi({ ...charges, 'GET /api/products/7': () => jsonResponse({ ...product, sizeQuantities: { M: 1 } }) });
    startCheckout();

    fireEvent.click(await payButton());
    expect(await screen.findByText('Please fill all required fields')).toBeTruthy();

    await fillGuestForm();
    fireEvent.click(await payButton());
    expect(await screen.findByText('Size not available')).toBeTruthy();
    expect(screen.getByText('Linen Kurta - Size M only has 1 item(s) available. You requested 2.')).toBeTruthy();
  });

  it("shows a sold-out refusal's title and message from create-order (409)", async () => {
    fakeApi({
      ...charges,
      'GET /api/products/7': () => jsonResponse(product),
      'POST /api/payment/create-order': () =>
        jsonResponse(
          {
            title: 'Size not available',
            message: 'Linen Kurta - Size M only has 1 item(s) available. You requested 2.',
          },
          409,
        ),
    });
    startCheckout();
    await fillGuestForm();
    fireEvent.click(await payButton());
    expect(await screen.findByText('Size not available')).toBeTruthy();
    expect(screen.getByText('Linen Kurta - Size M only has 1 item(s) available. You requested 2.')).toBeTruthy();
  });

  it("pays: create-order with orderData, the dialog, verify, then the cart is cleared and the order's confirmation page opens", async () => {
    const opened = fakeRazorpay();
    const fetchMock = fakeApi({
      ...charges,
      'GET /api/products/7': () => jsonResponse(product),
      'POST /api/payment/create-order': () =>
        jsonResponse({ id: 'order_1', amount: 204000, currency: 'INR', receipt: 'r', key_id: 'rzp_test_sandbox' }, 201),
      'POST /api/payment/verify': () =>
        jsonResponse({
          success: true,
          message: 'Payment verified successfully',
          orderNumber: 'ORD-1',
          orderToken: 'order_1.mac',
        }),
      'POST /api/orders/confirmation': () => jsonResponse({ orderNumber: null, message: 'Being placed' }, 202),
    });
    const { router, store } = startCheckout();
    await fillGuestForm();
    fireEvent.click(await payButton());

    await waitFor(() => expect(opened).toHaveLength(1));
    const { options } = opened[0]!;
    expect(options).toMatchObject({ key: 'rzp_test_sandbox', order_id: 'order_1', amount: 204000, currency: 'INR' });
    expect(options.prefill).toEqual({ name: 'Ravi Kumar', email: 'ravi@example.in', contact: '+91 98000 00002' });
    const createOrder = requestsOf(fetchMock).find((r) => r.url.endsWith('/api/payment/create-order'))!;
    expect(await createOrder.clone().json()).toMatchObject({
      amount: 2040,
      currency: 'INR',
      receipt: expect.stringMatching(/^receipt_\d+$/),
      orderData: {
        address: '12 MG Road',
        totalAmount: 2000,
        items: [{ productId: 7, quantity: 2, size: 'M', color: null }],
        customerName: 'Ravi Kumar',
        customerPhone: '+91 98000 00002',
        customerEmail: 'ravi@example.in',
        pincode: '560001',
        couponCode: null,
        discountAmount: 0,
        shippingCharge: 0,
        deliveryCharge: 40,
      },
    });

    options.handler({ razorpay_order_id: 'order_1', razorpay_payment_id: 'pay_1', razorpay_signature: 'sig' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/order-confirmation'));
    expect(router.state.location.hash).toBe('#order_1.mac');
    expect(store.getState().cart.lines).toEqual([]);
    expect(screen.getByText('Payment successful! Order placed.')).toBeTruthy();
    const verify = requestsOf(fetchMock).find((r) => r.url.endsWith('/api/payment/verify'))!;
    expect(await verify.clone().json()).toMatchObject({
      razorpay_order_id: 'order_1',
      razorpay_payment_id: 'pay_1',
      razorpay_signature: 'sig',
      orderData: { pincode: '560001' },
    });
    // Placed: this tab's draft of the form is gone, so the next checkout starts empty.
    expect(window.sessionStorage.getItem('checkoutShipping')).toBeNull();
  });

  it('keeps what the shopper typed across a reload of the page (a reload during payment too)', async () => {
    fakeApi(charges);
    startCheckout();
    await fillGuestForm();
    fireEvent.change(screen.getByLabelText('City'), { target: { value: 'Bengaluru' } });
    cleanup(); // the page goes; sessionStorage stays, as a reload keeps it
    startCheckout();
    expect(((await screen.findByLabelText('Name *')) as HTMLInputElement).value).toBe('Ravi Kumar');
    const value = (label: string) => (screen.getByLabelText(label) as HTMLInputElement).value;
    expect(['Email *', 'Phone *', 'Address *', 'City', 'Pincode *'].map(value)).toEqual([
      'ravi@example.in',
      '+91 98000 00002',
      '12 MG Road',
      'Bengaluru',
      '560001',
    ]);
  });

  it('keeps the cart when the payment is cancelled, fails or is not verified, and says so', async () => {
    const opened = fakeRazorpay();
    fakeApi({
      ...charges,
      'GET /api/products/7': () => jsonResponse(product),
      'POST /api/payment/create-order': () =>
        jsonResponse({ id: 'order_2', amount: 204000, currency: 'INR', receipt: 'r', key_id: 'rzp_test_sandbox' }, 201),
      'POST /api/payment/verify': () => jsonResponse({ message: 'Payment verification failed' }, 400),
    });
    const { router, store } = startCheckout();
    await fillGuestForm();

    fireEvent.click(await payButton());
    await waitFor(() => expect(opened).toHaveLength(1));
    opened[0]!.options.modal.ondismiss();
    expect(await screen.findByText('Payment cancelled')).toBeTruthy();

    fireEvent.click(await payButton());
    await waitFor(() => expect(opened).toHaveLength(2));
    for (const callback of opened[1]!.failed) callback({ error: { description: 'Card declined' } });
    expect(await screen.findByText('Payment failed')).toBeTruthy();
    expect(screen.getByText('Card declined')).toBeTruthy();

    opened[1]!.options.handler({
      razorpay_order_id: 'order_2',
      razorpay_payment_id: 'pay_2',
      razorpay_signature: 'bad',
    });
    expect(await screen.findByText('Payment verification failed')).toBeTruthy();

    expect(router.state.location.pathname).toBe('/checkout');
    expect(store.getState().cart.lines).toHaveLength(1);
    expect(JSON.parse(window.localStorage.getItem('cart') ?? '[]')).toHaveLength(1);
  });

  it('tells the shop when the dialog opens, and cancels the checkout when it is dismissed or the payment fails, so the stock goes back at once', async () => {
    const opened = fakeRazorpay();
    let n = 0;
    const fetchMock = fakeApi({
      ...charges,
      'GET /api/products/7': () => jsonResponse(product),
      'POST /api/payment/create-order': () =>
        jsonResponse(
          { id: `order_c${++n}`, amount: 204000, currency: 'INR', receipt: 'r', key_id: 'rzp_test_sandbox' },
          201,
        ),
      'POST /api/payment/dialog-opened': () => jsonResponse({ razorpay_order_id: 'x', expiresAt: 'later' }),
      'POST /api/payment/cancel': () => jsonResponse({ razorpay_order_id: 'x', status: 'cancelled' }),
    });
    startCheckout();
    await fillGuestForm();
    const calls = async (path: string) =>
      Promise.all(
        requestsOf(fetchMock)
          .filter((r) => r.url.endsWith(path))
          .map(async (r) => ((await r.clone().json()) as { razorpay_order_id: string }).razorpay_order_id),
      );

    fireEvent.click(await payButton());
    await waitFor(() => expect(opened).toHaveLength(1));
    expect(await calls('/api/payment/dialog-opened')).toEqual(['order_c1']);
    expect(await calls('/api/payment/cancel')).toEqual([]);
    opened[0]!.options.modal.ondismiss();
    await waitFor(async () => expect(await calls('/api/payment/cancel')).toEqual(['order_c1']));

    fireEvent.click(await payButton());
    await waitFor(() => expect(opened).toHaveLength(2));
    for (const callback of opened[1]!.failed) callback({ error: { description: 'Card declined' } });
    await waitFor(async () => expect(await calls('/api/payment/cancel')).toEqual(['order_c1', 'order_c2']));
  });
});
