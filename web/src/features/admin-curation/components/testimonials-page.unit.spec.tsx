import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, jsonResponse, requestsOf } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render-with-providers';
import { TestimonialsPage } from './testimonials-page';

const review = (id: string, status: string, text: string) => ({
  id,
  rating: 4,
  text,
  status,
  User: { name: 'Asha', email: 'asha@example.in' },
});

type Store = ReturnType<typeof renderWithProviders>['store'];
const noticesOf = (store: Store) => store.getState().notifications.items.map((n) => `${n.title}: ${n.message ?? ''}`);

describe('TestimonialsPage', () => {
  it('hides Approve on approved reviews and Reject on rejected ones', async () => {
    fakeApi({
      'GET /api/testimonials/admin/all': () =>
        jsonResponse([
          review('1', 'pending', 'Pending one'),
          review('2', 'approved', 'Approved one'),
          review('3', 'rejected', 'Rejected one'),
        ]),
    });
    renderWithProviders(<TestimonialsPage />);
    const item = async (text: string) => within((await screen.findByText(`“${text}”`)).closest('li')!);
    const pending = await item('Pending one');
    expect(pending.getByRole('button', { name: 'Approve' })).toBeTruthy();
    expect(pending.getByRole('button', { name: 'Reject' })).toBeTruthy();
    const approved = await item('Approved one');
    expect(approved.queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(approved.getByRole('button', { name: 'Reject' })).toBeTruthy();
    const rejected = await item('Rejected one');
    expect(rejected.getByRole('button', { name: 'Approve' })).toBeTruthy();
    expect(rejected.queryByRole('button', { name: 'Reject' })).toBeNull();
    expect(approved.getByRole('button', { name: 'Delete' })).toBeTruthy();
  });

  it("approves with PUT {status: 'approved'} and says 'Failed to approve' when refused", async () => {
    const fetchMock = fakeApi({
      'GET /api/testimonials/admin/all': () => jsonResponse([review('7', 'pending', 'Nice')]),
      'PUT /api/testimonials/admin/7': () => jsonResponse({ message: 'nope' }, 500),
    });
    const { store } = renderWithProviders(<TestimonialsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(noticesOf(store)).toContain('Error: Failed to approve'));
    const put = requestsOf(fetchMock).find((request) => request.method === 'PUT')!;
    expect(await put.json()).toEqual({ status: 'approved' });
  });

  it("shows 'Failed to load testimonials' when the list cannot load", async () => {
    fakeApi({ 'GET /api/testimonials/admin/all': () => jsonResponse({ message: 'down' }, 500) });
    renderWithProviders(<TestimonialsPage />);
    await waitFor(() => expect(screen.getByText('Failed to load testimonials')).toBeTruthy());
  });
});
