import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestShop, type TestShop } from '@shop/test-support/test-shop';
import { waitUntil } from '@shop/test-support/wait-until';

/**
 * Issue 13: failed log-ins are limited per account (5 in 15 minutes, from any address) and per address
 * (20 in 15 minutes, on any account), counted in Redis; a successful log-in clears its account's count.
 */

let shop: TestShop;
beforeAll(async () => {
  shop = await startTestShop({ redis: true });
  await waitUntil(() => shop.infra.rateLimits.sharing, 'the rate limits connected to Redis');
});
afterAll(() => shop?.stop());

const PASSWORD = 'right-password-1';
const ACCOUNT_LOCKED = 'Too many failed login attempts for this account, please try again in 15 minutes';
const ADDRESS_LOCKED = 'Too many failed login attempts from this address, please try again in 15 minutes';

const register = async (email: string) => {
  const r = await shop.api('POST', '/api/auth/register', {
    body: { name: 'Meera', email, phone: '+919800000001', password: PASSWORD },
    headers: { 'x-forwarded-for': '192.0.2.250' },
  });
  expect(r.status).toBe(201);
};

/** A log-in from the client address `from` (the shop trusts X-Forwarded-For from loopback). */
const login = async (email: string, password: string, from: string) => {
  const r = await fetch(`${shop.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
    body: JSON.stringify({ email, password }),
  });
  return { status: r.status, retryAfter: r.headers.get('retry-after'), body: (await r.json()) as { message?: string } };
};

describe('failed log-ins per account', () => {
  it('after 5 failures from 5 addresses the account is refused 429 from any address, even with the right password', async () => {
    await register('meera@example.in');
    for (let i = 1; i <= 5; i++) {
      // The e-mail as typed: case and spaces do not make it another account.
      const r = await login(i % 2 ? 'Meera@Example.in ' : 'meera@example.in', 'wrong-password', `198.51.100.${i}`);
      expect(r, `failure ${i}`).toEqual({
        status: 401,
        retryAfter: null,
        body: { message: 'Invalid email or password' },
      });
    }
    const refused = await login('meera@example.in', PASSWORD, '198.51.100.99');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ message: ACCOUNT_LOCKED });
    expect(Number(refused.retryAfter)).toBeGreaterThan(14 * 60);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(15 * 60);
    // Another account from one of those addresses is not affected.
    await register('farah@example.in');
    expect((await login('farah@example.in', PASSWORD, '198.51.100.1')).status).toBe(200);
  });

  it('a successful log-in clears the account count: 4 failures, a success, then 5 failures more are answered 401 and the next is refused', async () => {
    await register('ravi@example.in');
    const from = '198.51.100.40';
    for (let i = 0; i < 4; i++) expect((await login('ravi@example.in', 'nope', from)).status).toBe(401);
    expect((await login('ravi@example.in', PASSWORD, from)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await login('ravi@example.in', 'nope', from)).status).toBe(401);
    expect((await login('ravi@example.in', PASSWORD, from)).status).toBe(429);
  });

  it('requests that are no guess (a 400 for a missing password) do not count', async () => {
    await register('asha@example.in');
    for (let i = 0; i < 6; i++) {
      const r = await fetch(`${shop.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.60' },
        body: JSON.stringify({ email: 'asha@example.in' }),
      });
      expect(r.status).toBe(400);
    }
    expect((await login('asha@example.in', PASSWORD, '198.51.100.60')).status).toBe(200);
  });
});

describe('failed log-ins per address', () => {
  it('after 20 failures on 20 accounts the address is refused 429; the same account from another address logs in', async () => {
    const from = '203.0.113.77';
    for (let i = 0; i < 20; i++) {
      const r = await login(`guess${i}@example.in`, 'password1', from);
      expect(r.status, `failure ${i + 1}`).toBe(401);
    }
    await register('kiran@example.in');
    const refused = await login('kiran@example.in', PASSWORD, from);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ message: ADDRESS_LOCKED });
    expect(Number(refused.retryAfter)).toBeGreaterThan(14 * 60);
    expect((await login('kiran@example.in', PASSWORD, '203.0.113.78')).status).toBe(200);
  });

  it('successful log-ins from an address do not use up its budget (an office sharing one address)', async () => {
    const from = '203.0.113.90';
    await register('office@example.in');
    for (let i = 0; i < 25; i++) expect((await login('office@example.in', PASSWORD, from)).status).toBe(200);
    expect((await login('office@example.in', 'typo', from)).status).toBe(401);
  });
});
