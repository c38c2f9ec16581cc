import type { Request, Response } from 'express';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TokenService, type AuthUser } from './tokens.ts';

const tokens = new TokenService('a-test-secret-that-is-long-enough-for-hs256');
const meera: AuthUser = { id: 'user-1', email: 'meera@example.in', name: 'Meera', isAdmin: false };

/** The user authenticate() finds on a request carrying `authorization`. */
const userFor = (authorization: string): Promise<AuthUser | undefined> =>
  new Promise((resolve, reject) => {
    const req = { headers: { authorization }, method: 'GET', path: '/api/auth/me', query: {} } as unknown as Request;
    tokens.authenticate()(req, {} as Response, (err?: unknown) => (err ? reject(err as Error) : resolve(req.user)));
  });

describe('the Authorization scheme', () => {
  it('is case-insensitive: Bearer, bearer and BEARER all carry the token', async () => {
    const token = tokens.sign(meera);
    for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
      expect(await userFor(`${scheme} ${token}`), scheme).toEqual(meera);
    }
  });

  it('another scheme, or a forged token, leaves the request anonymous', async () => {
    const token = tokens.sign(meera);
    expect(await userFor(`Basic ${token}`)).toBeUndefined();
    expect(await userFor(`bearer ${token}x`)).toBeUndefined();
  });
});

describe('push-stream tickets (issue 27 item 4: a 7-day token travelled in the stream URL)', () => {
  afterEach(() => void vi.useRealTimers());

  it('carry the user for 60 seconds only, and are not tokens: neither passes for the other', () => {
    vi.useFakeTimers({ now: new Date('2026-11-27T10:00:00Z') });
    const ticket = tokens.signStreamTicket(meera);
    expect(tokens.verifyStreamTicket(ticket)).toEqual(meera);
    expect(tokens.verify(ticket)).toBeNull();
    expect(tokens.verifyStreamTicket(tokens.sign(meera))).toBeNull();
    expect(new TokenService('another-secret-that-is-long-enough!!').verifyStreamTicket(ticket)).toBeNull();
    vi.setSystemTime(new Date('2026-11-27T10:00:59Z'));
    expect(tokens.verifyStreamTicket(ticket)).toEqual(meera);
    vi.setSystemTime(new Date('2026-11-27T10:01:01Z'));
    expect(tokens.verifyStreamTicket(ticket)).toBeNull();
  });
});
