import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { authApi } from '@/features/auth/api/auth-api';
import { api } from '@/lib/api-client';
import { buildUser } from '@/testing/data';
import { fakeApi, jsonResponse } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-with-providers';
import { makeStore } from './store';

const probeApi = api.injectEndpoints({
  endpoints: (build) => ({
    probeAccount: build.query<unknown, void>({ query: () => '/auth/me' }),
  }),
});

function storeWithStoredSession() {
  const user = buildUser();
  window.localStorage.setItem('user', JSON.stringify(user));
  window.localStorage.setItem('token', 'stale-token');
  return makeStore();
}

describe('a 401 from the API', () => {
  it('logs the user out: user and token leave the session and browser storage', async () => {
    fakeApi({ 'GET /api/auth/me': () => jsonResponse({ message: 'Invalid or expired token' }, 401) });
    const store = storeWithStoredSession();

    await store.dispatch(probeApi.endpoints.probeAccount.initiate());

    expect(store.getState().session).toEqual({ user: null, token: null });
    expect(window.localStorage.getItem('user')).toBeNull();
    expect(window.localStorage.getItem('token')).toBeNull();
  });

  it('leaves the session alone for other failures and for a refused login', async () => {
    fakeApi({
      'GET /api/auth/me': () => jsonResponse({ message: 'Not an admin' }, 403),
      'POST /api/auth/login': () => jsonResponse({ message: 'Invalid email or password' }, 401),
    });
    const store = storeWithStoredSession();

    await store.dispatch(probeApi.endpoints.probeAccount.initiate());
    await store.dispatch(authApi.endpoints.login.initiate({ email: 'asha@example.in', password: 'wrong-pass' }));

    expect(store.getState().session.token).toBe('stale-token');
    expect(window.localStorage.getItem('token')).toBe('stale-token');
  });

  it('sends the user from a login-required page to /login, remembering the page', async () => {
    fakeApi({ 'GET /api/orders': () => jsonResponse({ message: 'Invalid or expired token' }, 401) });
    const { router } = renderApp({
      route: '/my-orders',
      preloadedState: { session: { user: buildUser(), token: 'stale-token' } },
    });

    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), { timeout: 5000 });
    expect(await screen.findByRole('heading', { name: 'Login' }, { timeout: 5000 })).toBeTruthy();
    expect(new URLSearchParams(router.state.location.search).get('redirectTo')).toBe('/my-orders');
    await waitFor(() => expect(window.localStorage.getItem('token')).toBeNull(), { timeout: 5000 });
    expect(window.localStorage.getItem('user')).toBeNull();
  });

  it('sends the user from a public page to /login too', async () => {
    fakeApi({
      'GET /api/products': () => jsonResponse({ message: 'Invalid or expired token' }, 401),
      'GET /api/home': () => jsonResponse({ message: 'Invalid or expired token' }, 401),
    });
    const { router } = renderApp({
      route: '/products?category=Men',
      preloadedState: { session: { user: buildUser(), token: 'stale-token' } },
    });

    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), { timeout: 5000 });
    expect(new URLSearchParams(router.state.location.search).get('redirectTo')).toBe('/products?category=Men');
    expect(window.localStorage.getItem('user')).toBeNull();
  });
});
