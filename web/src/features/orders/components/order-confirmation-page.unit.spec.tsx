import { act, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { buildUser } from '@/testing/data';
import { fakeApi, jsonResponse, requestsOf } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-with-providers';

const TOKEN = 'order_Abc123.mac-of_the-link';

const order = (deliveryStatus = 'Processing') => ({
  id: 'ORD-100007',
  orderNumber: 'ORD-100007',
  createdAt: '2026-11-22T10:00:00.000Z',
  deliveryStatus,
  totalAmount: 1549,
  subtotal: 1599,
  discountAmount: 100,
  couponCode: 'SAVE100',
  shippingCharge: 0,
  deliveryCharge: 50,
  customerName: 'Asha Rao',
  customerPhone: '+919800000000',
  customerEmail: 'asha@example.in',
  address: '12 MG Road, Bengaluru',
  pincode: '560001',
  paymentStatus: 'Paid',
  razorpayPaymentId: 'pay_Xyz789',
  items: [
    {
      Product: { id: 'p1', name: 'Mustard Cotton Kurta', price: 1599 },
      orderedQuantity: 1,
      size: 'M',
      color: null,
      totalAmount: 1599,
    },
  ],
});

/** A stand-in for the browser's EventSource: the test pushes events by name. */
class FakeEventSource {
  static readonly CLOSED = 2;
  static last: FakeEventSource | null = null;
  readyState = 1;
  readonly listeners = new Map<string, Array<(event: MessageEvent<string>) => void>>();
  constructor(readonly url: string) {
    FakeEventSource.last = this;
  }
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {}
  push(type: string, data: unknown) {
    const event = new MessageEvent<string>(type, { data: JSON.stringify(data) });
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
}

describe('/order-confirmation#<token>', () => {
  it("a guest sees 'being placed' until the order shows, then the order and the link to keep; no My Orders", async () => {
    let placed = false;
    const fetchMock = fakeApi({
      'POST /api/orders/confirmation': () =>
        placed
          ? jsonResponse(order())
          : jsonResponse({ orderNumber: null, message: 'Payment received. Your order is being placed.' }, 202),
    });
    renderApp({ route: `/order-confirmation#${encodeURIComponent(TOKEN)}` });

    await screen.findByText('Payment received. Your order is being placed.', {}, { timeout: 10_000 });
    // The token is read from the fragment and sent in the body, never in a URL.
    const [first] = requestsOf(fetchMock);
    expect(first!.url).toMatch(/\/api\/orders\/confirmation$/);
    expect(await first!.json()).toEqual({ token: TOKEN });

    // No push stream here (its fake answers 404): the page falls back to reading again every 2 s.
    placed = true; // the page reads again by itself while the order is being placed
    const card = await screen.findByRole('article', { name: 'Order ORD-100007' }, { timeout: 10_000 });
    expect(screen.getByRole('heading', { name: 'Thank you for your order!' })).toBeTruthy();
    expect(screen.getByText('Payment reference').nextElementSibling?.textContent).toBe('pay_Xyz789');
    expect(within(card).getByText('Mustard Cotton Kurta')).toBeTruthy();
    expect(within(card).getByText('Total').nextElementSibling?.textContent).toBe('₹1,549.00');
    expect(within(card).getByText('Processing').getAttribute('data-tone')).toBe('processing');
    expect(screen.getByText('Save this link to see your order later')).toBeTruthy();
    const link = screen.getByRole<HTMLInputElement>('textbox', { name: 'Order link' }).value;
    expect(link).toBe(`${window.location.origin}/order-confirmation#${encodeURIComponent(TOKEN)}`);
    expect(screen.getByRole('button', { name: 'Copy link' })).toBeTruthy();
    expect(within(screen.getByRole('main')).queryByRole('link', { name: 'My Orders' })).toBeNull();
  });

  it('a page that opened while the order was being placed shows it by push, without reading it again', async () => {
    let pushTo: ReadableStreamDefaultController<Uint8Array> | undefined;
    const frame = (event: string, data: unknown) =>
      pushTo!.enqueue(new TextEncoder().encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
    const fetchMock = fakeApi({
      // Every read answers 'being placed': only the push can show the order.
      'POST /api/orders/confirmation': () =>
        jsonResponse({ orderNumber: null, message: 'Payment received. Your order is being placed.' }, 202),
      'POST /api/orders/confirmation/stream': () =>
        new Response(new ReadableStream<Uint8Array>({ start: (controller) => void (pushTo = controller) }), {
          headers: { 'Content-Type': 'text/event-stream; charset=utf-8' },
        }),
    });
    renderApp({ route: `/order-confirmation#${encodeURIComponent(TOKEN)}` });
    await screen.findByText('Payment received. Your order is being placed.', {}, { timeout: 10_000 });
    await vi.waitFor(() => expect(pushTo).toBeDefined());
    // The stream is opened with the link's token in the body, never in the URL.
    const opened = requestsOf(fetchMock).find((r) => r.url.endsWith('/api/orders/confirmation/stream'))!;
    expect(await opened.json()).toEqual({ token: TOKEN });

    act(() => frame('ready', {}));
    act(() => frame('order', order()));
    const card = await screen.findByRole('article', { name: 'Order ORD-100007' }, { timeout: 10_000 });
    expect(screen.getByRole('heading', { name: 'Thank you for your order!' })).toBeTruthy();
    expect(within(card).getByText('Mustard Cotton Kurta')).toBeTruthy();
    // The order came by push: the confirmation was read once, when the page opened.
    const reads = requestsOf(fetchMock).filter((r) => r.url.endsWith('/api/orders/confirmation'));
    expect(reads).toHaveLength(1);
  });

  it("says 'Order not found' for a link the server does not know, and for a link without its token", async () => {
    fakeApi({ 'POST /api/orders/confirmation': () => jsonResponse({ message: 'Order not found' }, 404) });
    const first = renderApp({ route: '/order-confirmation#order_Abc123.tampered' });
    await screen.findByRole('heading', { name: 'Order not found' }, { timeout: 10_000 });
    first.unmount();
    renderApp({ route: '/order-confirmation' });
    await screen.findByRole('heading', { name: 'Order not found' }, { timeout: 10_000 });
  });

  it("a signed-in shopper's page links to My Orders and follows the order's status from the push stream", async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    let current = order('Processing');
    fakeApi({
      'POST /api/orders/confirmation': () => jsonResponse(current),
      'GET /api/orders': () => jsonResponse([current]),
      'POST /api/orders/stream-ticket': () => jsonResponse({ ticket: 'ticket 1', expiresIn: 60 }),
    });
    renderApp({
      route: `/order-confirmation#${encodeURIComponent(TOKEN)}`,
      preloadedState: { session: { user: buildUser(), token: 'token 1' } },
    });
    const card = await screen.findByRole('article', { name: 'Order ORD-100007' }, { timeout: 10_000 });
    const page = within(screen.getByRole('main'));
    expect(page.getByRole('link', { name: 'My Orders' }).getAttribute('href')).toBe('/my-orders');

    await vi.waitFor(() => expect(FakeEventSource.last).not.toBeNull());
    act(() => FakeEventSource.last?.push('ready', { userId: '1', isAdmin: false }));
    await screen.findByText('Live updates on');
    current = order('Out for Delivery');
    act(() => FakeEventSource.last?.push('order', current));
    expect((await within(card).findByText('Out for Delivery')).getAttribute('data-tone')).toBe('outForDelivery');
  });
});
