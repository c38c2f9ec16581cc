import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser } from '@/testing/data';
import { renderApp } from '@/testing/render-with-providers';
import { isPendingScreenHandle } from './pending-handle';

describe('the pending admin screen', () => {
  it("shows the route handle's title and note, with the way back to the dashboard", async () => {
    renderApp({
      route: '/admin/delivery-areas',
      preloadedState: { session: { user: buildUser({ isAdmin: true }), token: 'admin-token' } },
    });

    expect(await screen.findByRole('heading', { name: 'Delivery Areas' })).toBeTruthy();
    expect(screen.getByText('Delivery areas management is coming soon.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the dashboard' }).getAttribute('href')).toBe('/admin');
  });

  it('reads only handles that carry a title', () => {
    expect(isPendingScreenHandle({ title: 'Delivery Areas' })).toBe(true);
    expect(isPendingScreenHandle({ note: 'no title' })).toBe(false);
    expect(isPendingScreenHandle(undefined)).toBe(false);
  });
});
