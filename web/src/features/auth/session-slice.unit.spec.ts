import { afterEach, describe, expect, it } from 'vitest';
import { makeStore } from '@/app/store';
import { buildUser } from '@/testing/data';
import { loggedOut, readStoredSession, sessionStarted, userUpdated } from './session-slice';

afterEach(() => window.localStorage.clear());

describe('session', () => {
  it('stores user and token on login and removes both on logout', () => {
    const store = makeStore();
    const user = buildUser();

    store.dispatch(sessionStarted({ user, token: 'token-1' }));
    expect(JSON.parse(window.localStorage.getItem('user') ?? 'null')).toEqual(user);
    expect(window.localStorage.getItem('token')).toBe('token-1');
    expect(readStoredSession()).toEqual({ user, token: 'token-1' });

    store.dispatch(loggedOut());
    expect(window.localStorage.getItem('user')).toBeNull();
    expect(window.localStorage.getItem('token')).toBeNull();
  });

  it('keeps no token when the login answer carries none', () => {
    window.localStorage.setItem('token', 'stale');
    const store = makeStore();
    store.dispatch(sessionStarted({ user: buildUser(), token: null }));
    expect(window.localStorage.getItem('token')).toBeNull();
  });

  it('takes a fresh token from a profile update and keeps the old one otherwise', () => {
    const store = makeStore({ session: { user: buildUser(), token: 'old' } });
    store.dispatch(userUpdated({ user: buildUser({ name: 'Asha R.' }), token: null }));
    expect(store.getState().session).toMatchObject({ user: { name: 'Asha R.' }, token: 'old' });
    store.dispatch(userUpdated({ user: buildUser({ name: 'Asha Rao' }), token: 'new' }));
    expect(window.localStorage.getItem('token')).toBe('new');
  });

  it('starts logged out when the stored user cannot be read', () => {
    window.localStorage.setItem('user', '{not json');
    window.localStorage.setItem('token', 'orphan');
    expect(makeStore().getState().session).toEqual({ user: null, token: null });
  });
});
