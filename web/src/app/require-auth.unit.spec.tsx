import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser } from '@/testing/data';
import { fakeApi, jsonResponse } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-with-providers';

const loggedIn = (isAdmin = false) => ({ session: { user: buildUser({ isAdmin }), token: 'token-1' } });

async function logIn(email: string, password: string) {
  fireEvent.change(await screen.findByLabelText('Email'), { target: { value: email } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Login' }));
}

describe('login-required routes', () => {
  it.each(['/profile', '/my-orders', '/admin', '/admin/orders'])(
    'send a logged-out visitor from %s to /login, remembering the page',
    async (route) => {
      const { router } = renderApp({ route });

      expect(await screen.findByRole('heading', { name: 'Login' })).toBeTruthy();
      expect(router.state.location.pathname).toBe('/login');
      expect(new URLSearchParams(router.state.location.search).get('redirectTo')).toBe(route);
    },
  );

  it('let a logged-in user in', async () => {
    const { router } = renderApp({ route: '/my-orders', preloadedState: loggedIn() });
    expect(await screen.findByRole('heading', { name: 'My Orders' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/my-orders');
  });

  it('return the user to the remembered page after logging in', async () => {
    fakeApi({ 'POST /api/auth/login': () => jsonResponse({ user: buildUser(), token: 'fresh-token' }) });
    const { router } = renderApp({ route: '/profile' });

    await logIn('asha@example.in', 'secret1');

    expect(await screen.findByRole('heading', { name: 'My Profile' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/profile');
    expect(screen.getByText('Welcome back')).toBeTruthy();
    expect(window.localStorage.getItem('token')).toBe('fresh-token');
    expect(JSON.parse(window.localStorage.getItem('user') ?? 'null')).toMatchObject({ email: 'asha@example.in' });
  });

  it('send an admin to the dashboard whatever page was remembered', async () => {
    fakeApi({
      'POST /api/auth/login': () => jsonResponse({ user: buildUser({ isAdmin: true }), token: 'admin-token' }),
      'GET /api/products': () => jsonResponse([]),
      'GET /api/auth/admin/users': () => jsonResponse([]),
    });
    const { router } = renderApp({ route: '/profile' });

    await logIn('admin@example.in', 'secret1');

    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/admin');
  });

  it("stay on the login page with 'Login failed' and the server message when refused", async () => {
    fakeApi({ 'POST /api/auth/login': () => jsonResponse({ message: 'Invalid email or password' }, 401) });
    const { router } = renderApp({ route: '/login' });

    await logIn('asha@example.in', 'wrong-pass');

    expect(await screen.findByText('Invalid email or password')).toBeTruthy();
    expect(screen.getByText('Login failed')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Login' }).hasAttribute('disabled')).toBe(false));
    expect(router.state.location.pathname).toBe('/login');
    expect(window.localStorage.getItem('user')).toBeNull();
  });
});
