import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, jsonResponse, requestsOf } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render-with-providers';
import { AdminOrders } from './admin-orders';

const order = (overrides: Record<string, unknown> = {}) => ({
  orderNumber: 'ORD-100001',
  createdAt: '2026-11-22T10:00:00.000Z',
  deliveryStatus: 'Processing',
  totalAmount: 1999,
  customerName: 'Meera Iyer',
  customerPhone: '+919812345678',
  customerEmail: 'meera@example.in',
  address: '14 Residency Road, Bengaluru',
  pincode: '560025',
  paymentStatus: null,
  shiprocketAWB: 'AWB42',
  shiprocketTrackingUrl: null,
  shiprocketStatus: null,
  seen: false,
  items: [
    { Product: { id: 'p1', name: 'Linen Shirt' }, orderedQuantity: 1, size: 'M', color: null, totalAmount: 1999 },
  ],
  ...overrides,
});

const historyEvent = (position: string, type: string, actor: string | null, time: string, data: unknown) => ({
  source: type.startsWith('Stock') ? 'catalog' : type.startsWith('Payment') ? 'checkout' : 'orders',
  position,
  streamId: 'stream',
  streamVersion: 1,
  eventId: `event-${position}`,
  type,
  schemaVersion: 1,
  time,
  indiaTime: `${time} IST`,
  actor,
  correlationId: 'corr-1',
  causationId: null,
  data,
});

// Log order as the server sends it; the last event happened before the first on the clock, to prove the
// screen keeps the server's order instead of sorting.
const history = {
  orderNumber: 'ORD-100001',
  events: [
    historyEvent('7', 'PaymentOrderCreated', 'user-1', '2026-11-22T09:58:00.000Z', { totalPaise: 199900 }),
    historyEvent('31', 'StockReserved', 'inventory', '2026-11-22T09:58:01.000Z', { quantity: 1, size: 'M' }),
    historyEvent('8', 'PaymentVerified', 'webhook', '2026-11-22T09:59:30.000Z', { totalPaise: 199900, via: 'webhook' }),
    historyEvent('12', 'OrderPlaced', 'user-1', '2026-11-22T10:00:00.000Z', { totalPaise: 199900 }),
    historyEvent('13', 'DeliveryStatusChanged', 'admin-7', '2026-11-22T10:00:00.000Z', {
      from: 'Processing',
      to: 'Out for Delivery',
    }),
  ],
};

const historyGets = (fetchMock: ReturnType<typeof fakeApi>) =>
  requestsOf(fetchMock).filter((r) => r.method === 'GET' && r.url.endsWith('/api/orders/admin/ORD-100001/history'));

type Store = ReturnType<typeof renderWithProviders>['store'];
const noticesOf = (store: Store) => store.getState().notifications.items.map((n) => `${n.title}: ${n.message ?? ''}`);

// Rendering with the store and router is slow on a busy machine: a roomier limit than the default 5 s.
describe('AdminOrders', { timeout: 15_000 }, () => {
  it('shows the order data, Pending payment by default, tracking fields and no Delete before delivery', async () => {
    fakeApi({ 'GET /api/orders/admin/all': () => jsonResponse([order()]) });
    renderWithProviders(<AdminOrders />);
    const card = await screen.findByRole('article', { name: 'Order ORD-100001' });
    const text = card.textContent ?? '';
    for (const shown of [
      'Meera Iyer',
      'meera@example.in',
      // The pincode too: without it the order cannot be shipped.
      '14 Residency Road, Bengaluru - 560025',
      'Linen Shirt',
      '₹1,999.00',
      'Pending',
      'AWB42',
    ])
      expect(text).toContain(shown);
    expect(within(card).getByText('Processing', { selector: '[data-tone]' }).getAttribute('data-tone')).toBe(
      'processing',
    );
    expect(within(card).queryByRole('button', { name: 'Delete' })).toBeNull();
    const options = within(card)
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(options).toEqual(['Processing', 'Out for Delivery', 'Delivered']);
  });

  it('shows the tracking link and status, marking a return to origin or a lost parcel as needing action', async () => {
    fakeApi({
      'GET /api/orders/admin/all': () =>
        jsonResponse([
          order({
            shiprocketAWB: 'SR000100000001',
            shiprocketTrackingUrl: 'https://shiprocket.co/tracking/SR000100000001',
            shiprocketStatus: 'IN TRANSIT',
          }),
          order({ orderNumber: 'ORD-100002', shiprocketAWB: 'SR000100000002', shiprocketStatus: 'RTO INITIATED' }),
        ]),
    });
    renderWithProviders(<AdminOrders />);
    const moving = within(await screen.findByRole('article', { name: 'Order ORD-100001' }));
    expect(moving.getByRole('link', { name: 'https://shiprocket.co/tracking/SR000100000001' })).toBeTruthy();
    expect(moving.getByText('Tracking status').nextElementSibling?.textContent).toBe('IN TRANSIT');
    const returning = within(screen.getByRole('article', { name: 'Order ORD-100002' }));
    expect(returning.getByText('Tracking status').nextElementSibling?.textContent).toBe('RTO INITIATEDNeeds action');
  });

  it('shows a shipment Shiprocket refused as Needs action with its reason, and no problem on other orders', async () => {
    fakeApi({
      'GET /api/orders/admin/all': () =>
        jsonResponse([
          order({ shiprocketAWB: null, shipmentProblem: 'The billing pincode must be 6 digits.' }),
          order({ orderNumber: 'ORD-100002', shipmentProblem: null }),
          order({ orderNumber: 'ORD-100003', shiprocketAWB: null, deliveryStatus: 'Cancelled', shipmentProblem: 'x' }),
        ]),
    });
    renderWithProviders(<AdminOrders />);
    const refused = within(await screen.findByRole('article', { name: 'Order ORD-100001' }));
    expect(refused.getByText('Shipment').nextElementSibling?.textContent).toBe(
      'Needs actionShiprocket refused the shipment: The billing pincode must be 6 digits.',
    );
    expect(refused.getByText('AWB').nextElementSibling?.textContent).toBe('—');
    for (const name of ['Order ORD-100002', 'Order ORD-100003']) {
      const other = within(screen.getByRole('article', { name }));
      expect(other.queryByText('Needs action'), name).toBeNull();
      expect(other.queryByText(/Shiprocket refused/), name).toBeNull();
    }
  });

  it("sets the delivery status, and says 'Failed to update status' when refused", async () => {
    let refuse = false;
    const fetchMock = fakeApi({
      'GET /api/orders/admin/all': () => jsonResponse([order()]),
      'PATCH /api/orders/admin/ORD-100001/status': () =>
        refuse ? jsonResponse({ message: 'nope' }, 500) : jsonResponse({ ok: true }),
    });
    const { store } = renderWithProviders(<AdminOrders />);
    const card = await screen.findByRole('article', { name: 'Order ORD-100001' });
    fireEvent.change(within(card).getByLabelText('Delivery status'), { target: { value: 'Out for Delivery' } });
    await waitFor(() =>
      expect(requestsOf(fetchMock).some((r) => r.method === 'PATCH' && r.url.endsWith('/status'))).toBe(true),
    );
    const patch = requestsOf(fetchMock).find((r) => r.method === 'PATCH')!;
    expect(await patch.json()).toEqual({ deliveryStatus: 'Out for Delivery' });
    refuse = true;
    fireEvent.change(within(card).getByLabelText('Delivery status'), { target: { value: 'Delivered' } });
    await waitFor(() => expect(noticesOf(store)).toContain('Failed to update status: nope'));
  });

  it("marks an order seen, and says 'Failed to mark seen' when refused", async () => {
    fakeApi({
      'GET /api/orders/admin/all': () => jsonResponse([order()]),
      'PATCH /api/orders/admin/ORD-100001/seen': () => jsonResponse({ message: 'down' }, 503),
    });
    const { store } = renderWithProviders(<AdminOrders />);
    fireEvent.click(await screen.findByRole('button', { name: 'Mark Seen' }));
    await waitFor(() => expect(noticesOf(store)).toContain('Failed to mark seen: down'));
  });

  it('deletes a delivered order after the confirmation that says only delivered orders can be deleted', async () => {
    fakeApi({
      'GET /api/orders/admin/all': () => jsonResponse([order({ deliveryStatus: 'Delivered', seen: true })]),
      'DELETE /api/orders/admin/ORD-100001': () => jsonResponse({ message: 'Order deleted' }),
    });
    const { store } = renderWithProviders(<AdminOrders />);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('alertdialog');
    expect(dialog.textContent).toContain('Only delivered orders can be deleted');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(noticesOf(store)).toContain('Success: Order deleted'));
  });

  it("says 'Failed to delete order' when the delete is refused", async () => {
    fakeApi({
      'GET /api/orders/admin/all': () => jsonResponse([order({ deliveryStatus: 'Delivered' })]),
      'DELETE /api/orders/admin/ORD-100001': () => jsonResponse({ message: 'Only delivered orders' }, 409),
    });
    const { store } = renderWithProviders(<AdminOrders />);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(noticesOf(store)).toContain('Failed to delete order: Only delivered orders'));
  });

  it("says 'Failed to load orders' when the list cannot be read", async () => {
    fakeApi({ 'GET /api/orders/admin/all': () => jsonResponse({ message: 'Forbidden' }, 403) });
    renderWithProviders(<AdminOrders />);
    await screen.findByText('Failed to load orders');
  });

  it("opens an order's history: its events in log order with India time, readable names, actors and data", async () => {
    const fetchMock = fakeApi({
      'GET /api/orders/admin/all': () => jsonResponse([order()]),
      'GET /api/orders/admin/ORD-100001/history': () => jsonResponse(history),
    });
    renderWithProviders(<AdminOrders />);
    const card = await screen.findByRole('article', { name: 'Order ORD-100001' });
    expect(within(card).queryByRole('region', { name: 'History of ORD-100001' })).toBeNull();
    expect(historyGets(fetchMock)).toHaveLength(0);

    const button = within(card).getByRole('button', { name: 'History of ORD-100001' });
    expect(button.textContent).toBe('History');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');

    const panel = within(card).getByRole('region', { name: 'History of ORD-100001' });
    expect(button.getAttribute('aria-controls')).toBe(panel.id);
    const rows = await within(panel).findAllByRole('listitem');
    expect(historyGets(fetchMock)).toHaveLength(1);
    expect(rows.map((row) => row.querySelector('[title]:not(time)')?.textContent)).toEqual([
      'Payment order created',
      'Stock reserved',
      'Payment verified',
      'Order placed',
      'Delivery status changed',
    ]);
    const text = rows.map((row) => row.textContent ?? '');
    expect(text[0]).toContain('by user-1');
    expect(text[0]).toContain('₹1,999.00');
    expect(text[1]).toContain('by inventory');
    expect(text[1]).toContain('1 unit · Size M');
    expect(text[2]).toContain('by webhook');
    expect(text[2]).toContain('₹1,999.00 · via webhook');
    expect(text[4]).toContain('by admin-7');
    expect(text[4]).toContain('Processing → Out for Delivery');
    // 10:00 UTC is 3:30 pm in India.
    expect(text[3]).toMatch(/22 Nov 2026, 3:30:00\s?pm IST/);
    expect(rows[3]!.querySelector('time')?.getAttribute('dateTime')).toBe('2026-11-22T10:00:00.000Z');

    fireEvent.click(button);
    expect(within(card).queryByRole('region', { name: 'History of ORD-100001' })).toBeNull();
  });

  it("says 'Could not load the history' when it cannot be read, and Try again loads it", async () => {
    let refuse = true;
    const fetchMock = fakeApi({
      'GET /api/orders/admin/all': () => jsonResponse([order()]),
      'GET /api/orders/admin/ORD-100001/history': () =>
        refuse ? jsonResponse({ message: 'down' }, 503) : jsonResponse(history),
    });
    renderWithProviders(<AdminOrders />);
    fireEvent.click(await screen.findByRole('button', { name: 'History of ORD-100001' }));
    const panel = screen.getByRole('region', { name: 'History of ORD-100001' });
    const alert = await within(panel).findByRole('alert');
    expect(alert.textContent).toContain('Could not load the history');
    expect(within(panel).queryAllByRole('listitem')).toHaveLength(0);

    refuse = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await within(panel).findAllByRole('listitem')).toHaveLength(history.events.length);
    expect(within(panel).queryByRole('alert')).toBeNull();
    expect(within(panel).getByText('Payment verified')).toBeTruthy();
    expect(historyGets(fetchMock)).toHaveLength(2);
  });

  it('refetches an open history when the delivery status is changed', async () => {
    let events = history.events.slice(0, 4);
    const fetchMock = fakeApi({
      'GET /api/orders/admin/all': () => jsonResponse([order()]),
      'GET /api/orders/admin/ORD-100001/history': () => jsonResponse({ ...history, events }),
      'PATCH /api/orders/admin/ORD-100001/status': () => {
        events = history.events;
        return jsonResponse({ ok: true });
      },
    });
    renderWithProviders(<AdminOrders />);
    const card = await screen.findByRole('article', { name: 'Order ORD-100001' });
    fireEvent.click(within(card).getByRole('button', { name: 'History of ORD-100001' }));
    const panel = within(card).getByRole('region', { name: 'History of ORD-100001' });
    expect(await within(panel).findAllByRole('listitem')).toHaveLength(4);
    fireEvent.change(within(card).getByLabelText('Delivery status'), { target: { value: 'Out for Delivery' } });
    await within(panel).findByText('Delivery status changed');
    expect(historyGets(fetchMock)).toHaveLength(2);
  });
});
