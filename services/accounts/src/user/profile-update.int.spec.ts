import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indiaDate } from '@shop/shared/time/india-date';
import { startTestShop, type TestShop } from '@shop/test-support/test-shop';

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

describe('PUT /api/auth/me refuses a date of birth in the future (issue 9, item 7)', () => {
  const dayAfter = (isoDate: string) =>
    new Date(Date.parse(`${isoDate}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

  it("PUT /api/auth/me with tomorrow's date (India time) as dob answers 400 naming dob and keeps the old dob", async () => {
    await shop.api('PUT', '/api/auth/me', {
      token,
      body: { name: 'Kiran S', email: 'kiran@example.in', dob: '1990-05-17' },
    });
    const r = await shop.api<{ message: string; errors: Array<{ path: string }> }>('PUT', '/api/auth/me', {
      token,
      body: { name: 'Kiran S', email: 'kiran@example.in', dob: dayAfter(indiaDate(new Date())) },
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('Date of birth (dob) cannot be in the future');
    expect(r.body.errors).toEqual([{ path: 'dob', message: 'Date of birth (dob) cannot be in the future' }]);
    expect((await me()).dob).toBe('1990-05-17');
  });

  it("PUT /api/auth/me with today's date in India as dob is accepted", async () => {
    const today = indiaDate(new Date());
    const r = await shop.api<Me>('PUT', '/api/auth/me', {
      token,
      body: { name: 'Kiran S', email: 'kiran@example.in', dob: today },
    });
    expect(r.status).toBe(200);
    expect(r.body.dob).toBe(today);
    expect((await me()).dob).toBe(today);
  });
});
