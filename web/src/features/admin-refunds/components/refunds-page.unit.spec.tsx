import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, jsonResponse, requestsOf } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render-with-providers';
import { RefundsPage } from './refunds-page';

const refunded = {
  razorpayPaymentId: 'pay_Late0000000001',
  razorpayOrderId: 'order_Late000000001',
  customerEmail: 'asha@example.in',
  amount: 123456.5,
  reason: 'paid_after_expiry',
  detail: 'Payment captured after the reservation expired (reported by webhook)',
  status: 'refunded',
  refundId: 'rfnd_Done000000001',
  dueAt: '2026-11-22T10:00:00.000Z',
  refundedAt: '2026-11-22T10:00:05.000Z',
  attempts: 0,
  lastError: null,
};
const due = {
  ...refunded,
  razorpayPaymentId: 'pay_Gone0000000002',
  razorpayOrderId: 'order_Gone000000002',
  customerEmail: null,
  amount: 1200,
  reason: 'order_refused',
  detail: 'Gone Kurta only has 0 item(s) available. You requested 1.',
  status: 'due',
  refundId: null,
  refundedAt: null,
  attempts: 2,
  lastError: 'UnavailableError: Payment provider is unreachable, please try again',
};

describe('RefundsPage', { timeout: 15_000 }, () => {
  it('lists each refund: order and payment ids, e-mail, rupees, reason, status and India time', async () => {
    fakeApi({ 'GET /api/payment/admin/refunds': () => jsonResponse([refunded, due]) });
    renderWithProviders(<RefundsPage />);
    const first = (await screen.findByText('order_Late000000001')).closest('tr')!;
    const cells = within(first);
    expect(cells.getByText('pay_Late0000000001')).toBeTruthy();
    expect(cells.getByText('asha@example.in')).toBeTruthy();
    expect(cells.getByText('₹1,23,456.50')).toBeTruthy();
    expect(cells.getByText('Paid after the reservation expired')).toBeTruthy();
    expect(cells.getByText('Refunded')).toBeTruthy();
    expect(cells.getByText('rfnd_Done000000001')).toBeTruthy();
    expect(cells.getByText('Due 22 Nov 2026, 3:30 pm IST')).toBeTruthy();
    expect(cells.getByText('Refunded 22 Nov 2026, 3:30 pm IST')).toBeTruthy();

    const second = within(screen.getByText('order_Gone000000002').closest('tr')!);
    expect(second.getByText('—')).toBeTruthy();
    expect(second.getByText('₹1,200.00')).toBeTruthy();
    expect(second.getByText('Order could not be placed at payment')).toBeTruthy();
    expect(second.getByText('Gone Kurta only has 0 item(s) available. You requested 1.')).toBeTruthy();
    expect(second.getByText('Due (2 failed tries)')).toBeTruthy();
    expect(second.getByText(/Payment provider is unreachable/)).toBeTruthy();
  });

  it('says when there are none, and asks again on Refresh', async () => {
    const fetchMock = fakeApi({ 'GET /api/payment/admin/refunds': () => jsonResponse([]) });
    renderWithProviders(<RefundsPage />);
    await screen.findByText('No refunds. Payments that cannot become an order are listed here.');
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(requestsOf(fetchMock).filter((r) => r.method === 'GET')).toHaveLength(2));
  });

  it('says when the list cannot be read', async () => {
    fakeApi({ 'GET /api/payment/admin/refunds': () => jsonResponse({ message: 'Admin access required' }, 403) });
    renderWithProviders(<RefundsPage />);
    await screen.findByText('Could not load the refunds');
  });
});
