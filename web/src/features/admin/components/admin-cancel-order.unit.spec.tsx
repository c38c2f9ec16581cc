import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, jsonResponse, requestsOf } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render-with-providers';
import { AdminOrders } from './admin-orders';

const order = (orderNumber: string, overrides: Record<string, unknown> = {}) => ({
  orderNumber,
  createdAt: '2026-11-22T10:00:00.000Z',
  deliveryStatus: 'Out for Delivery',
  totalAmount: 1999,
  customerName: 'Meera Iyer',
  address: '14 Residency Road, Bengaluru',
  paymentStatus: 'Paid',
  seen: true,
  items: [{ Product: { id: 'p1', name: 'Linen Shirt' }, orderedQuantity: 1, totalAmount: 1999 }],
  ...overrides,
});
const patches = (fetchMock: ReturnType<typeof fakeApi>) =>
  requestsOf(fetchMock).filter((r) => r.method === 'PATCH' && r.url.endsWith('/cancel'));

describe('AdminOrders: cancelling an order', { timeout: 15_000 }, () => {
  it('cancels an order not delivered with the reason given (required), then shows it Cancelled, its reason and refund', async () => {
    let serverOrders = [order('ORD-100001'), order('ORD-100002', { deliveryStatus: 'Delivered' })];
    const fetchMock = fakeApi({
      'GET /api/orders/admin/all': () => jsonResponse(serverOrders),
      'PATCH /api/orders/admin/ORD-100001/cancel': () => {
        serverOrders = [
          order('ORD-100001', {
            deliveryStatus: 'Cancelled',
            cancelReason: 'Parcel damaged',
            refund: { amount: 1999, reference: null, status: 'Pending' },
          }),
          serverOrders[1]!,
        ];
        return jsonResponse({ message: 'Order cancelled', ...serverOrders[0] });
      },
    });
    renderWithProviders(<AdminOrders />);

    const delivered = await screen.findByRole('article', { name: 'Order ORD-100002' });
    expect(within(delivered).queryByRole('button', { name: 'Cancel order' })).toBeNull();
    const card = screen.getByRole('article', { name: 'Order ORD-100001' });
    // the dropdown never offers Cancelled: cancelling is its own action
    expect(
      within(card)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Processing', 'Out for Delivery', 'Delivered']);

    fireEvent.click(within(card).getByRole('button', { name: 'Cancel order' }));
    const form = within(card).getByRole('form', { name: 'Cancel ORD-100001' });
    fireEvent.click(within(form).getByRole('button', { name: 'Cancel and refund' }));
    expect(within(form).getByRole('alert').textContent).toBe('A reason is required to cancel an order');
    expect(patches(fetchMock)).toEqual([]);

    fireEvent.change(within(form).getByLabelText('Reason for cancelling'), { target: { value: '  Parcel damaged ' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Cancel and refund' }));
    await waitFor(() => expect(patches(fetchMock)).toHaveLength(1));
    expect(await patches(fetchMock)[0]!.json()).toEqual({ reason: 'Parcel damaged' });

    await waitFor(() => {
      const now = screen.getByRole('article', { name: 'Order ORD-100001' });
      expect(within(now).getByText('Cancelled', { selector: '[data-tone]' }).getAttribute('data-tone')).toBe(
        'cancelled',
      );
    });
    const cancelled = screen.getByRole('article', { name: 'Order ORD-100001' });
    expect(within(cancelled).getByText('Parcel damaged')).toBeTruthy();
    expect(within(cancelled).getByText('Refund').nextElementSibling?.textContent).toBe('₹1,999.00 Pending');
    expect(within(cancelled).queryByRole('button', { name: 'Cancel order' })).toBeNull();
    expect((within(cancelled).getByLabelText('Delivery status') as HTMLSelectElement).disabled).toBe(true);
  });

  it('Keep order closes the form without cancelling', async () => {
    const fetchMock = fakeApi({ 'GET /api/orders/admin/all': () => jsonResponse([order('ORD-100003')]) });
    renderWithProviders(<AdminOrders />);
    const card = await screen.findByRole('article', { name: 'Order ORD-100003' });
    fireEvent.click(within(card).getByRole('button', { name: 'Cancel order' }));
    fireEvent.click(within(card).getByRole('button', { name: 'Keep order' }));
    expect(within(card).queryByRole('form')).toBeNull();
    expect(patches(fetchMock)).toEqual([]);
  });
});
