import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser } from '@/testing/data';
import { fakeApi, jsonResponse } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render-with-providers';
import { AdminUsers } from './admin-users';

// Rendering with the store and router is slow on a busy machine: a roomier limit than the default 5 s.
describe('AdminUsers', { timeout: 15_000 }, () => {
  it('shows Admin or User in the role column', async () => {
    fakeApi({
      'GET /api/auth/admin/users': () =>
        jsonResponse([
          buildUser({ id: 1, name: 'Admin', email: 'admin@shop.local', isAdmin: true }),
          buildUser({ id: 2, name: 'Asha Rao' }),
        ]),
    });
    renderWithProviders(<AdminUsers />);
    const asha = (await screen.findByText('Asha Rao')).closest('tr')!;
    expect(within(asha).getByText('User')).toBeTruthy();
    const admin = screen.getByText('admin@shop.local').closest('tr')!;
    expect(within(admin).getAllByText('Admin').length).toBe(2);
  });

  it("says 'Failed to load users' when the list cannot be read", async () => {
    fakeApi({ 'GET /api/auth/admin/users': () => jsonResponse({ message: 'Forbidden' }, 403) });
    renderWithProviders(<AdminUsers />);
    await screen.findByText('Failed to load users');
  });
});
