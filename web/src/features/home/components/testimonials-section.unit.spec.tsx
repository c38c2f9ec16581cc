import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, jsonResponse, requestsOf } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render-with-providers';
import { TestimonialsSection } from './testimonials-section';

const approved = [
  { id: 't1', rating: 4, text: 'Soft cotton, true to size.', status: 'approved', User: { name: 'Meera Iyer' } },
];
const notices = (store: ReturnType<typeof renderWithProviders>['store']) =>
  store.getState().notifications.items.map((item) => [item.type, item.title, item.message]);

describe('TestimonialsSection', () => {
  it('shows approved reviews with their stars and author, and asks a visitor to log in to review', async () => {
    fakeApi({ 'GET /api/testimonials': () => jsonResponse(approved) });
    renderWithProviders(<TestimonialsSection isLoggedIn={false} loginHref="/login?redirectTo=%2F" />);
    const review = (await screen.findByText('Soft cotton, true to size.')).closest('figure')!;
    expect(within(review).getByRole('img', { name: 'Rated 4 out of 5' })).toBeTruthy();
    expect(within(review).getByText('Meera Iyer')).toBeTruthy();
    expect(screen.getByText('Please login to submit a review')).toBeTruthy();
    expect(screen.queryByLabelText('Your review')).toBeNull();
  });

  it("says 'No testimonials yet.' when the list fails to load", async () => {
    fakeApi({ 'GET /api/testimonials': () => jsonResponse({ message: 'down' }, 503) });
    renderWithProviders(<TestimonialsSection isLoggedIn loginHref="/login" />);
    expect(await screen.findByText('No testimonials yet.')).toBeTruthy();
  });

  it('refuses blank text, then sends the rating and trimmed text and shows the thank-you', async () => {
    const fetchMock = fakeApi({
      'GET /api/testimonials': () => jsonResponse([]),
      'POST /api/testimonials': () =>
        jsonResponse(
          { message: 'Thank you for your review! It will appear once it has been approved.', status: 'pending' },
          201,
        ),
    });
    const { store } = renderWithProviders(<TestimonialsSection isLoggedIn loginHref="/login" />);
    const text = await screen.findByLabelText('Your review');
    expect((screen.getByLabelText('Rating') as HTMLSelectElement).value).toBe('5');

    fireEvent.change(text, { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit Review' }));
    expect(await screen.findByText('Please enter your review text')).toBeTruthy();
    expect(notices(store)).toEqual([['error', 'Error', 'Please enter your review text']]);

    fireEvent.change(screen.getByLabelText('Rating'), { target: { value: '3' } });
    fireEvent.change(text, { target: { value: '  Lovely colours  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit Review' }));
    await screen.findByRole('button', { name: 'Submit Review' });
    await expect.poll(() => notices(store).length).toBe(2);
    expect(notices(store)[1]).toEqual([
      'success',
      'Success',
      'Thank you for your review! It will appear once it has been approved.',
    ]);
    const post = requestsOf(fetchMock).find((request) => request.method === 'POST')!;
    expect(await post.json()).toEqual({ rating: 3, text: 'Lovely colours' });
    expect((text as HTMLTextAreaElement).value).toBe('');
  });

  it("shows 'Failed to submit review' with the server's message when the post is refused", async () => {
    fakeApi({
      'GET /api/testimonials': () => jsonResponse([]),
      'POST /api/testimonials': () => jsonResponse({ message: 'Please login to submit a review' }, 401),
    });
    const { store } = renderWithProviders(<TestimonialsSection isLoggedIn loginHref="/login" />);
    fireEvent.change(await screen.findByLabelText('Your review'), { target: { value: 'Nice' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit Review' }));
    await expect
      .poll(() => notices(store))
      .toEqual([['error', 'Failed to submit review', 'Please login to submit a review']]);
  });
});
