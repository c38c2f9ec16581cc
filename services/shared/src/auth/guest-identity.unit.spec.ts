import { describe, expect, it } from 'vitest';
import { buyerKeyOf, GUEST_COOKIE, GuestIdentity, isFirstVisit } from './guest-identity.ts';

/** A request through the middleware, with the Set-Cookie lines its answer got. */
function through(identity: GuestIdentity, req: Record<string, unknown>) {
  const setCookies: string[] = [];
  const res = { headersSent: false, append: (n: string, v: string) => void (n === 'Set-Cookie' && setCookies.push(v)) };
  const request = { headers: {}, socket: {}, ...req } as never as Parameters<typeof buyerKeyOf>[0];
  identity.middleware()(request, res as never, () => undefined);
  return { req: request, setCookies };
}

const cookieValue = (setCookie: string) => setCookie.split(';')[0]!.slice(GUEST_COOKIE.length + 1);

describe('GuestIdentity', () => {
  const identity = new GuestIdentity('a-test-secret-of-enough-length-for-the-hmac');

  it('mints a new id only when something asks, as an HttpOnly SameSite cookie', () => {
    const untouched = through(identity, {});
    expect(untouched.setCookies).toEqual([]);
    const asked = through(identity, {});
    const id = asked.req.guestId;
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(asked.req.guestId).toBe(id); // one id per request, one cookie
    expect(asked.setCookies).toHaveLength(1);
    expect(asked.setCookies[0]).toMatch(/^kapda_guest=[^;]+; Path=\/; Max-Age=31536000; HttpOnly; SameSite=Lax$/);
    expect(identity.read(cookieValue(asked.setCookies[0]!))).toBe(id);
  });

  it('keeps the id of a browser that sends its cookie back, and sets nothing', () => {
    const first = through(identity, {});
    const id = first.req.guestId;
    const cookie = `theme=dark; ${GUEST_COOKIE}=${cookieValue(first.setCookies[0]!)}`;
    const again = through(identity, { headers: { cookie } });
    expect(again.req.guestId).toBe(id);
    expect(again.setCookies).toEqual([]);
    expect(buyerKeyOf(again.req)).toBe(`guest:${id}`);
  });

  it('refuses a forged, tampered or foreign cookie and gives the caller a new id instead', () => {
    const id = through(identity, {}).req.guestId;
    const genuine = identity.sign(id);
    const other = new GuestIdentity('another-shop-secret-of-enough-length-here');
    for (const forged of [
      `${id}.${'A'.repeat(43)}`,
      `${'B'.repeat(22)}${genuine.slice(22)}`,
      other.sign(id),
      id,
      '',
      `${id}.${genuine.split('.')[1]}x`,
    ]) {
      const r = through(identity, { headers: { cookie: `${GUEST_COOKIE}=${forged}` } });
      expect(r.req.guestId).not.toBe(id);
      expect(r.setCookies).toHaveLength(1);
    }
  });

  it('tells a first visit (identity minted by this request) from a returning browser or an account', () => {
    const first = through(identity, {});
    void first.req.guestId;
    expect(isFirstVisit(first.req)).toBe(true);
    const cookie = `${GUEST_COOKIE}=${cookieValue(first.setCookies[0]!)}`;
    const back = through(identity, { headers: { cookie } });
    void back.req.guestId;
    expect(isFirstVisit(back.req)).toBe(false);
    const account = through(identity, { user: { id: 'u-2', email: 'b@c.in', name: 'B', isAdmin: false } });
    expect(isFirstVisit(account.req)).toBe(false);
  });

  it('marks the cookie Secure over TLS', () => {
    const r = through(identity, { socket: { encrypted: true } });
    void r.req.guestId;
    expect(r.setCookies[0]).toContain('; Secure');
  });

  it('keys a signed-in buyer on the account, whatever cookie they send', () => {
    const r = through(identity, { user: { id: 'u-1', email: 'a@b.in', name: 'A', isAdmin: false } });
    expect(buyerKeyOf(r.req)).toBe('user:u-1');
    expect(r.setCookies).toEqual([]);
  });
});
