import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, jsonResponse, requestsOf } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render-with-providers';
import { CouponsPage } from './coupons-page';

const coupon = {
  id: 'c1',
  code: 'SAVE50',
  discountType: 'fixed',
  discountValue: 50,
  minOrderAmount: 499,
  maxDiscount: null,
  usageLimit: null,
  usedCount: 3,
  validFrom: null,
  validUntil: null,
  description: '',
  isActive: false,
};

type Store = ReturnType<typeof renderWithProviders>['store'];
const noticesOf = (store: Store) => store.getState().notifications.items.map((n) => `${n.title}: ${n.message ?? ''}`);

describe('CouponsPage', () => {
  it('shows the empty state', async () => {
    fakeApi({ 'GET /api/coupons': () => jsonResponse([]) });
    renderWithProviders(<CouponsPage />);
    await screen.findByText('No coupons found. Create your first coupon!');
  });

  it('shows usage with ∞, rupee amounts and the status, and deletes after the confirmation', async () => {
    const fetchMock = fakeApi({
      'GET /api/coupons': () => jsonResponse([coupon]),
      'DELETE /api/coupons/c1': () => jsonResponse({ message: 'Coupon deleted successfully', id: 'c1' }),
    });
    const { store } = renderWithProviders(<CouponsPage />);
    await screen.findByText('SAVE50');
    expect(screen.getByText('3 / ∞')).toBeTruthy();
    expect(screen.getByText('₹499.00')).toBeTruthy();
    expect(screen.getByText('₹50.00 off')).toBeTruthy();
    expect(screen.getByText('Inactive')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Delete SAVE50' }));
    const dialog = screen.getByRole('alertdialog');
    expect(dialog.textContent).toContain('Are you sure you want to delete this coupon?');
    expect(document.activeElement?.textContent).toBe('Cancel');
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(noticesOf(store)).toContain('Success: Coupon deleted successfully'));
    expect(requestsOf(fetchMock).some((request) => request.method === 'DELETE')).toBe(true);
  });

  it("checks the form before sending and shows the server's message on a refused save", async () => {
    const fetchMock = fakeApi({
      'GET /api/coupons': () => jsonResponse([]),
      'POST /api/coupons': () => jsonResponse({ message: 'Coupon code already exists' }, 409),
    });
    const { store } = renderWithProviders(<CouponsPage />);
    fireEvent.click(await screen.findByRole('button', { name: '+ Create Coupon' }));
    fireEvent.change(screen.getByLabelText('Coupon Code'), { target: { value: 'big' } });
    fireEvent.change(screen.getByLabelText('Discount Value (%)'), { target: { value: '150' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Coupon' }));
    await screen.findByText('A percentage discount can be at most 100');
    expect(requestsOf(fetchMock).some((request) => request.method === 'POST')).toBe(false);
    fireEvent.change(screen.getByLabelText('Discount Value (%)'), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('Discount Value (%)'), { target: { value: '15' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Coupon' }));
    await waitFor(() => expect(noticesOf(store)).toContain('Error: Coupon code already exists'));
    const post = requestsOf(fetchMock).find((request) => request.method === 'POST')!;
    expect(await post.json()).toMatchObject({
      code: 'BIG',
      discountType: 'percentage',
      discountValue: 15,
      usageLimit: null,
    });
  });
});
