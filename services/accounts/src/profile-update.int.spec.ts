import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestShop, type TestShop } from '../../../tests/support/test-shop.ts';

interface Me {
  name: string;
  email: string;
  phone: string;
  dob: string | null;
  gender: string | null;
}

let shop: TestShop;
let token: string;
beforeAll(async () => {
  shop = await startTestShop();
  const r = await shop.api<{ token: string }>('POST', '/api/auth/register', {
    body: { name: 'Kiran', email: 'kiran@example.in', phone: '+919800000009', password: 'secret1' },
  });
  token = r.body.token;
  const full = await shop.api('PUT', '/api/auth/me', {
    token,
    body: { name: 'Kiran', email: 'kiran@example.in', phone: '+919800000009', dob: '1990-05-17', gender: 'Other' },
  });
  expect(full.status).toBe(200);
});
afterAll(() => shop?.stop());

const me = async () => (await shop.api<Me>('GET', '/api/auth/me', { token })).body;

describe('PUT /api/auth/me keeps fields left out (issue 15, defect 8: a missing phone cleared the phone)', () => {
  it('PUT /api/auth/me without phone, dob and gender keeps them as they are', async () => {
    const r = await shop.api<Me>('PUT', '/api/auth/me', {
      token,
      body: { name: 'Kiran S', email: 'kiran@example.in' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: 'Kiran S', phone: '+919800000009', dob: '1990-05-17', gender: 'Other' });
    expect(await me()).toMatchObject({ name: 'Kiran S', phone: '+919800000009', dob: '1990-05-17', gender: 'Other' });
  });

  it('PUT /api/auth/me changes only the fields sent', async () => {
    const r = await shop.api<Me>('PUT', '/api/auth/me', {
      token,
      body: { name: 'Kiran S', email: 'kiran@example.in', phone: '+919811111111' },
    });
    expect(r.status).toBe(200);
    expect(await me()).toMatchObject({ phone: '+919811111111', dob: '1990-05-17', gender: 'Other' });
  });

  it("PUT /api/auth/me with '' or null clears phone, dob and gender", async () => {
    const r = await shop.api<Me>('PUT', '/api/auth/me', {
      token,
      body: { name: 'Kiran S', email: 'kiran@example.in', phone: '', dob: null, gender: '' },
    });
    expect(r.status).toBe(200);
    expect(await me()).toMatchObject({ phone: '', dob: null, gender: null });
  });
});
