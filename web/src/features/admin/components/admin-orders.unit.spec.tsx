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
      '14 Residency Road',
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
});
