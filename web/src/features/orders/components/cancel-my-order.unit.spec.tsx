import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser } from '@/testing/data';
import { fakeApi, jsonResponse, requestsOf } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render-with-providers';
import { MyOrdersPage } from './my-orders-page';

const order = (orderNumber: string, overrides: Record<string, unknown> = {}) => ({
  orderNumber,
  createdAt: '2026-11-22T10:00:00.000Z',
  deliveryStatus: 'Processing',
  totalAmount: 1549,
  customerName: 'Asha Rao',
  address: '12 MG Road, Bengaluru',
  pincode: '560001',
  paymentStatus: 'Paid',
  canCancel: true,
  refund: null,
  items: [{ Product: { id: 'p1', name: 'Mustard Cotton Kurta' }, orderedQuantity: 1, totalAmount: 1549 }],
  ...overrides,
});
const session = { session: { user: buildUser(), token: 'token 1' } };

describe('My Orders: cancelling an order', { timeout: 15_000 }, () => {
  it('offers Cancel order only where the shop allows it, asks first, then shows it Cancelled with its refund', async () => {
    let serverOrders = [
      order('ORD-100002'),
      order('ORD-100001', { deliveryStatus: 'Out for Delivery', canCancel: false }),
    ];
    const fetchMock = fakeApi({
      'GET /api/orders': () => jsonResponse(serverOrders),
      'POST /api/orders/ORD-100002/cancel': () => {
        serverOrders = [
          order('ORD-100002', {
            deliveryStatus: 'Cancelled',
            canCancel: false,
            paymentStatus: 'Refunded',
            refund: { amount: 1549, reference: 'rfnd_ABC123', status: 'Refunded' },
          }),
          serverOrders[1]!,
        ];
        return jsonResponse({ message: 'Order cancelled', ...serverOrders[0] });
      },
    });
    renderWithProviders(<MyOrdersPage />, { preloadedState: session });

    const shipped = await screen.findByRole('article', { name: 'Order ORD-100001' });
    expect(within(shipped).queryByRole('button', { name: 'Cancel order' })).toBeNull();
    const card = screen.getByRole('article', { name: 'Order ORD-100002' });

    // Keep order: nothing is sent
    fireEvent.click(within(card).getByRole('button', { name: 'Cancel order' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('Cancel order ORD-100002? The payment will be refunded to you.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep order' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(requestsOf(fetchMock).some((r) => r.method === 'POST')).toBe(false);

    fireEvent.click(within(card).getByRole('button', { name: 'Cancel order' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel order' }));
    await waitFor(() => {
      const now = screen.getByRole('article', { name: 'Order ORD-100002' });
      expect(within(now).getByText('Cancelled', { selector: '[data-tone]' }).getAttribute('data-tone')).toBe(
        'cancelled',
      );
    });
    const cancelled = screen.getByRole('article', { name: 'Order ORD-100002' });
    expect(within(cancelled).getByText('Refund').nextElementSibling?.textContent).toBe(
      '₹1,549.00 Refunded (rfnd_ABC123)',
    );
    expect(within(cancelled).queryByRole('button', { name: 'Cancel order' })).toBeNull();
    expect(
      requestsOf(fetchMock)
        .filter((r) => r.method === 'POST')
        .map((r) => new URL(r.url).pathname),
    ).toEqual(['/api/orders/ORD-100002/cancel']);
  });

  it('says why when the shop refuses (it shipped meanwhile)', async () => {
    fakeApi({
      'GET /api/orders': () => jsonResponse([order('ORD-100003')]),
      'POST /api/orders/ORD-100003/cancel': () =>
        jsonResponse({ message: 'This order is no longer being processed and can no longer be cancelled' }, 409),
    });
    const { store } = renderWithProviders(<MyOrdersPage />, { preloadedState: session });
    const card = await screen.findByRole('article', { name: 'Order ORD-100003' });
    fireEvent.click(within(card).getByRole('button', { name: 'Cancel order' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel order' }));
    await waitFor(() =>
      expect(store.getState().notifications.items.map((n) => `${n.title}: ${n.message ?? ''}`)).toContain(
        'Failed to cancel order: This order is no longer being processed and can no longer be cancelled',
      ),
    );
  });
});
