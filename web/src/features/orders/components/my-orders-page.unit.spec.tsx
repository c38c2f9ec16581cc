import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser } from '@/testing/data';
import { fakeApi, jsonResponse } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-with-providers';

/** A stand-in for the browser's EventSource: the test pushes events by name. */
class FakeEventSource {
  static readonly CLOSED = 2;
  static last: FakeEventSource | null = null;
  readyState = 1;
  readonly listeners = new Map<string, Array<(event: MessageEvent<string>) => void>>();
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.last = this;
  }
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.closed = true;
  }
  push(type: string, data: unknown) {
    const event = new MessageEvent<string>(type, { data: JSON.stringify(data) });
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
}

afterEach(() => {
  FakeEventSource.last = null;
});

const order = (deliveryStatus: string) => ({
  id: 'ORD-100001',
  orderNumber: 'ORD-100001',
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
  razorpayPaymentId: 'pay_123',
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

describe('/my-orders', () => {
  it("shows the shopper's orders with lines, totals and payment, and follows pushed status changes", async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    // The server's current list: each pushed change below is made here first, as on the server.
    let serverOrders: unknown[] = [order('Processing')];
    const fetchMock = fakeApi({
      'GET /api/orders': () => jsonResponse(serverOrders),
      'POST /api/orders/stream-ticket': (request) =>
        request.headers.get('authorization') === 'Bearer token 1'
          ? jsonResponse({ ticket: 'ticket 1', expiresIn: 60 })
          : jsonResponse({ message: 'Please login to continue' }, 401),
    });
    renderApp({ route: '/my-orders', preloadedState: { session: { user: buildUser(), token: 'token 1' } } });

    const card = await screen.findByRole('article', { name: 'Order ORD-100001' }, { timeout: 5000 });
    const inCard = within(card);
    expect(inCard.getByText('Processing').getAttribute('data-tone')).toBe('processing');
    expect(inCard.getByText('Mustard Cotton Kurta')).toBeTruthy();
    expect(inCard.getByText('Discount (SAVE100)').nextElementSibling?.textContent).toBe('-₹100.00');
    expect(inCard.getByText('Delivery').nextElementSibling?.textContent).toBe('₹50.00');
    expect(inCard.getByText('Total').nextElementSibling?.textContent).toBe('₹1,549.00');
    expect(inCard.getByText('Paid')).toBeTruthy();

    // Opened with a ticket the token was traded for: the token itself is never in the URL (issue 27 item 4).
    await vi.waitFor(() => expect(FakeEventSource.last).not.toBeNull());
    const stream = FakeEventSource.last;
    expect(stream?.url).toMatch(/\/api\/orders\/stream\?ticket=ticket%201$/);
    const callsBefore = fetchMock.mock.calls.length;
    act(() => stream?.push('ready', { userId: '1', isAdmin: false }));
    expect(await screen.findByText('Live updates on')).toBeTruthy();
    // After `ready` the list is read again, so nothing missed while connecting is lost.
    await vi.waitFor(() => expect(fetchMock.mock.calls.length).toBeGreaterThan(callsBefore));

    serverOrders = [order('Out for Delivery')];
    act(() => stream?.push('order', order('Out for Delivery')));
    expect((await inCard.findByText('Out for Delivery')).getAttribute('data-tone')).toBe('outForDelivery');

    serverOrders = [];
    act(() => stream?.push('order', { orderNumber: 'ORD-100001', deleted: true }));
    expect(await screen.findByText('You have not placed any orders yet.')).toBeTruthy();
  });

  it('shows the shipment: AWB, tracking status and a link to the tracking page, and follows tracking updates', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    const shipped = (shiprocketStatus: string, deliveryStatus = 'Processing') => ({
      ...order(deliveryStatus),
      shiprocketAWB: 'SR000100000001',
      shiprocketTrackingUrl: '/shiprocket-sandbox/tracking/SR000100000001',
      shiprocketStatus,
    });
    let serverOrders: unknown[] = [shipped('AWB ASSIGNED')];
    fakeApi({
      'GET /api/orders': () => jsonResponse(serverOrders),
      'POST /api/orders/stream-ticket': () => jsonResponse({ ticket: 'ticket 1', expiresIn: 60 }),
    });
    renderApp({ route: '/my-orders', preloadedState: { session: { user: buildUser(), token: 'token 1' } } });

    const card = within(await screen.findByRole('article', { name: 'Order ORD-100001' }, { timeout: 5000 }));
    expect(card.getByText('Shipment').nextElementSibling?.textContent).toContain('AWB SR000100000001');
    expect(card.getByText(/AWB ASSIGNED/)).toBeTruthy();
    expect(card.getByRole('link', { name: 'Track your parcel' }).getAttribute('href')).toBe(
      '/shiprocket-sandbox/tracking/SR000100000001',
    );

    await vi.waitFor(() => expect(FakeEventSource.last).not.toBeNull());
    serverOrders = [shipped('OUT FOR DELIVERY', 'Out for Delivery')];
    act(() => FakeEventSource.last?.push('order', serverOrders[0]));
    expect(await card.findByText(/OUT FOR DELIVERY/)).toBeTruthy();
    expect((await card.findByText('Out for Delivery')).getAttribute('data-tone')).toBe('outForDelivery');
  });

  it("shows a cancelled order's cancelled shipment as CANCELED, with no parcel to track", async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    fakeApi({
      'GET /api/orders': () =>
        jsonResponse([
          {
            ...order('Cancelled'),
            shiprocketAWB: 'SR000100000001',
            shiprocketTrackingUrl: '/shiprocket-sandbox/tracking/SR000100000001',
            shiprocketStatus: 'CANCELED',
          },
        ]),
      'POST /api/orders/stream-ticket': () => jsonResponse({ ticket: 'ticket 1', expiresIn: 60 }),
    });
    renderApp({ route: '/my-orders', preloadedState: { session: { user: buildUser(), token: 'token 1' } } });
    const card = within(await screen.findByRole('article', { name: 'Order ORD-100001' }, { timeout: 5000 }));
    expect(card.getByText('Shipment').nextElementSibling?.textContent).toBe('AWB SR000100000001 · CANCELED');
    expect(card.queryByRole('link', { name: 'Track your parcel' })).toBeNull();
  });

  it('shows no shipment before one is made', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    fakeApi({
      'GET /api/orders': () => jsonResponse([order('Processing')]),
      'POST /api/orders/stream-ticket': () => jsonResponse({ ticket: 'ticket 1', expiresIn: 60 }),
    });
    renderApp({ route: '/my-orders', preloadedState: { session: { user: buildUser(), token: 'token 1' } } });
    const card = within(await screen.findByRole('article', { name: 'Order ORD-100001' }, { timeout: 5000 }));
    expect(card.queryByText('Shipment')).toBeNull();
    expect(card.queryByRole('link', { name: 'Track your parcel' })).toBeNull();
  });
});
