import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestShop, type TestShop } from '@shop/test-support/test-shop';

let shop: TestShop;
beforeAll(async () => {
  shop = await startTestShop();
});
afterAll(() => shop.stop());

const asha = { name: 'Asha Rao', email: 'asha@example.in', phone: '+919812345678', password: 'secret1' };

describe('accounts API', () => {
  it('registers a shopper, answers the user and a token, and /auth/me reads it back', async () => {
    const r = await shop.api<{ user: { id: string; isAdmin: boolean; email: string }; token: string }>(
      'POST',
      '/api/auth/register',
      { body: asha },
    );
    expect(r.status).toBe(201);
    expect(r.body.user).toMatchObject({ name: 'Asha Rao', email: 'asha@example.in', isAdmin: false });
    expect(r.body.token).toBeTruthy();
    const me = await shop.api('GET', '/api/auth/me', { token: r.body.token });
    expect(me).toMatchObject({ status: 200, body: { email: 'asha@example.in', phone: '+919812345678' } });
    expect(JSON.stringify(me.body)).not.toMatch(/password/i);
  });

  it('refuses bad sign-ups with the seed messages, and a second account for the same e-mail', async () => {
    expect(
      await shop.api('POST', '/api/auth/register', { body: { ...asha, email: 'x@y.in', password: '123' } }),
    ).toMatchObject({
      status: 400,
      body: { message: 'Password must be at least 6 characters' },
    });
    expect((await shop.api('POST', '/api/auth/register', { body: { email: 'z@y.in' } })).status).toBe(400);
    // An Indian mobile number: '12' is refused, a spaced +91 number is kept as typed.
    for (const phone of ['12', '5845012345', '+1 9845012345'])
      expect(
        await shop.api('POST', '/api/auth/register', { body: { ...asha, email: 'phone@y.in', phone } }),
      ).toMatchObject({ status: 400, body: { message: 'Please enter a valid 10-digit mobile number' } });
    const spaced = await shop.api('POST', '/api/auth/register', {
      body: { ...asha, email: 'spaced@y.in', phone: '+91 98450-12345' },
    });
    expect(spaced).toMatchObject({ status: 201, body: { user: { phone: '+91 98450-12345' } } });
    // Too long is not 'required': each limit names itself and its maximum.
    const tooLong: Array<[object, string]> = [
      [{ password: 'p'.repeat(1000) }, 'Password must be at most 200 characters'],
      [{ name: 'n'.repeat(101) }, 'Name must be at most 100 characters'],
      [{ phone: '9'.repeat(21) }, 'Phone must be at most 20 characters'],
    ];
    for (const [change, message] of tooLong)
      expect(
        await shop.api('POST', '/api/auth/register', { body: { ...asha, email: 'long@y.in', ...change } }),
      ).toMatchObject({ status: 400, body: { message } });
    expect(
      await shop.api('POST', '/api/auth/login', { body: { email: asha.email, password: 'p'.repeat(1000) } }),
    ).toMatchObject({ status: 400, body: { message: 'Password must be at most 200 characters' } });
    expect(await shop.api('POST', '/api/auth/register', { body: { ...asha, email: 'ASHA@example.in' } })).toMatchObject(
      { status: 409, body: { message: 'Email already registered' } },
    );
    expect(await shop.api('POST', '/api/auth/register', { body: '{"name":' })).toMatchObject({
      status: 400,
      body: { message: 'Malformed JSON body' },
    });
  });

  it('lets only one of 10 concurrent sign-ups with one e-mail through', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        shop.api('POST', '/api/auth/register', { body: { ...asha, email: 'race@example.in' } }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(9);
  });

  it('logs in with the right password only', async () => {
    expect(
      (await shop.api('POST', '/api/auth/login', { body: { email: asha.email, password: 'wrong!' } })).status,
    ).toBe(401);
    expect(
      (await shop.api('POST', '/api/auth/login', { body: { email: 'nobody@x.in', password: 'whatever' } })).status,
    ).toBe(401);
    expect((await shop.api('POST', '/api/auth/login', { body: { email: asha.email } })).status).toBe(400);
    const token = await shop.login(asha.email, asha.password);
    expect(token).toBeTruthy();
  });

  it('updates the profile (name, e-mail, phone, dob, gender) and refuses a missing name', async () => {
    const token = await shop.login(asha.email, asha.password);
    const r = await shop.api<{ name: string; dob: string; gender: string }>('PUT', '/api/auth/me', {
      token,
      body: { name: 'Asha R', email: 'asha.r@example.in', phone: '+919800000001', dob: '1994-11-22', gender: 'Female' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: 'Asha R', dob: '1994-11-22', gender: 'Female' });
    expect((await shop.api('PUT', '/api/auth/me', { token, body: { email: 'a@b.in' } })).status).toBe(400);
    expect(
      await shop.api('PUT', '/api/auth/me', {
        token,
        body: { name: 'Asha R', email: 'asha.r@example.in', phone: '12' },
      }),
    ).toMatchObject({ status: 400, body: { message: 'Please enter a valid 10-digit mobile number' } });
    expect(
      (await shop.api('PUT', '/api/auth/me', { token, body: { name: 'A', email: 'a@b.in', gender: 'Robot' } })).status,
    ).toBe(400);
    // the old address is free again, the new one taken
    expect((await shop.api('POST', '/api/auth/register', { body: { ...asha, email: 'asha@example.in' } })).status).toBe(
      201,
    );
    await shop.login('asha.r@example.in', asha.password);
  });

  it('guards admin routes on the server: 401 without a token, 403 for a shopper, 200 for the admin', async () => {
    expect((await shop.api('GET', '/api/auth/admin/users')).status).toBe(401);
    expect((await shop.api('GET', '/api/auth/admin/users', { token: 'forged.token.value' })).status).toBe(401);
    const shopper = await shop.login('asha.r@example.in', asha.password);
    expect(await shop.api('GET', '/api/auth/admin/users', { token: shopper })).toMatchObject({
      status: 403,
      body: { message: 'Admin access required' },
    });
    const admin = await shop.login();
    const users = await shop.api<Array<{ email: string; isAdmin: boolean }>>('GET', '/api/auth/admin/users', {
      token: admin,
    });
    expect(users.status).toBe(200);
    expect(users.body.find((u) => u.email === ADMIN.email)?.isAdmin).toBe(true);
    expect(users.body.some((u) => u.email === 'asha.r@example.in' && !u.isAdmin)).toBe(true);
  });

  it('records every account change as an event', async () => {
    const { rows } = await shop.db.pool.query(
      `SELECT type, count(*)::int AS n FROM accounts.events GROUP BY type ORDER BY type`,
    );
    const counts = Object.fromEntries(rows.map((r) => [r.type, r.n]));
    expect(counts).toMatchObject({ UserRegistered: 5, UserProfileUpdated: 1, EmailClaimed: 6, EmailReleased: 1 });
  });
});
