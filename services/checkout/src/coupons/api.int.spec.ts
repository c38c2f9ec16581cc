import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '@shop/test-support/wait-until';
import { startCheckoutTestHost, type CheckoutTestHost } from '../testing/checkout-test-host.ts';
import { createCoupons } from './index.ts';

interface Coupon {
  id: string;
  code: string;
  discountType: string;
  discountValue: number;
  minOrderAmount: number;
  maxDiscount: number | null;
  usageLimit: number | null;
  usedCount: number;
  validFrom: string | null;
  validUntil: string | null;
  isActive: boolean;
  status: string;
}
interface Validation {
  valid: boolean;
  coupon: { code: string; discountType: string; discountValue: number } | null;
  discountAmount: number;
  message: string;
}

let host: CheckoutTestHost<ReturnType<typeof createCoupons>>;
let admin: string;
let shopper: string;
beforeAll(async () => {
  host = await startCheckoutTestHost(createCoupons);
  admin = await host.login();
  shopper = (await host.signUp('Kabir', 'kabir@example.in')).token;
});
afterAll(() => host.stop());

/** A calendar day `days` from today in India (negative: in the past). */
const indianDay = (days: number) =>
  new Date(Date.now() + 5.5 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);

const diwali = {
  code: ' diwali10 ',
  discountType: 'percentage',
  discountValue: '10',
  minOrderAmount: '500',
  maxDiscount: '200',
  usageLimit: '',
  validFrom: '',
  validUntil: indianDay(30),
  description: 'Festive offer',
  isActive: true,
};
const create = (body: unknown) =>
  host.api<Coupon & { message: string }>('POST', '/api/coupons', { token: admin, body });
const validate = (code: unknown, orderTotal: unknown) =>
  host.api<Validation>('POST', '/api/coupons/validate', { body: { code, orderTotal } });
const list = async () => (await host.api<Coupon[]>('GET', '/api/coupons', { token: admin })).body;

describe('coupons API: admin', () => {
  it('guards every admin route: 401 without a token, 403 for a shopper', async () => {
    const routes: Array<[string, string]> = [
      ['GET', '/api/coupons'],
      ['POST', '/api/coupons'],
      ['PUT', '/api/coupons/some-id'],
      ['DELETE', '/api/coupons/some-id'],
    ];
    for (const [method, path] of routes) {
      const body = method === 'GET' ? undefined : diwali;
      expect((await host.api(method, path, { body })).status, `${method} ${path}`).toBe(401);
      expect(await host.api(method, path, { token: shopper, body })).toMatchObject({
        status: 403,
        body: { message: 'Admin access required' },
      });
    }
    expect(await list()).toEqual([]);
  });

  it('creates a coupon with the code trimmed and upper-cased, and lists it at once', async () => {
    const r = await create(diwali);
    expect(r).toMatchObject({
      status: 201,
      body: {
        message: 'Coupon created successfully',
        code: 'DIWALI10',
        discountType: 'percentage',
        discountValue: 10,
        minOrderAmount: 500,
        maxDiscount: 200,
        usageLimit: null,
        usedCount: 0,
        validFrom: null,
        validUntil: diwali.validUntil,
        isActive: true,
        status: 'Active',
      },
    });
    expect((await list()).map((c) => c.code)).toEqual(['DIWALI10']);
  });

  it('refuses a second coupon with the same code, in any case', async () => {
    expect(await create({ ...diwali, code: 'Diwali10' })).toMatchObject({
      status: 409,
      body: { message: 'Coupon code already exists' },
    });
  });

  it('refuses bad fields with clear messages', async () => {
    const refused = async (body: unknown, message: string) =>
      expect(await create(body)).toMatchObject({ status: 400, body: { message } });
    await refused({ ...diwali, code: '  ' }, 'Coupon code is required');
    await refused({ ...diwali, code: 'TWO WORDS' }, 'Coupon code cannot contain spaces');
    await refused({ ...diwali, discountType: 'bogof' }, 'Discount type must be percentage or fixed');
    await refused({ ...diwali, discountValue: '' }, 'Discount value is required');
    await refused({ ...diwali, discountValue: '12.345' }, 'Discount value can have at most 2 decimals');
    await refused({ ...diwali, discountValue: -1 }, 'Discount value must be at least 0');
    await refused({ ...diwali, code: 'HUGE', discountValue: 100.01 }, 'Percentage discount cannot be more than 100');
    await refused({ ...diwali, minOrderAmount: 'lots' }, 'Minimum order amount must be a number');
    await refused({ ...diwali, maxDiscount: -5 }, 'Max discount must be at least 0');
    await refused({ ...diwali, usageLimit: '0' }, 'Usage limit must be a whole number of at least 1');
    await refused({ ...diwali, usageLimit: 2.5 }, 'Usage limit must be a whole number of at least 1');
    await refused({ ...diwali, validFrom: 'soon' }, 'Valid from must be a date');
    await refused(
      { ...diwali, code: 'BACKWARDS', validFrom: indianDay(5), validUntil: indianDay(1) },
      'Valid until cannot be before valid from',
    );
    expect((await list()).length).toBe(1);
  });

  it('derives the status in the seed order: Inactive, Expired, Limit Reached, Active', async () => {
    await create({ ...diwali, code: 'SLEEPING', isActive: 'false', validUntil: indianDay(-3) });
    await create({ ...diwali, code: 'OLDNEWS', validUntil: indianDay(-3) });
    const once = (await create({ ...diwali, code: 'ONCE', usageLimit: 1, minOrderAmount: 0 })).body;
    await host.slice.coupons.reserveUse({ code: 'once', reservationId: 'r-once', orderTotalPaise: 100_000 });
    await host.slice.coupons.commitUse('ONCE', 'r-once');
    const byCode = async () => Object.fromEntries((await list()).map((c) => [c.code, c]));
    // uses reach the read model asynchronously; wait for the condition, not for a time
    await waitUntil(async () => (await byCode()).ONCE?.usedCount === 1, 'the use to reach the list');
    const coupons = await byCode();
    expect(coupons.SLEEPING?.status).toBe('Inactive');
    expect(coupons.OLDNEWS?.status).toBe('Expired');
    expect(coupons.ONCE).toMatchObject({ id: once.id, status: 'Limit Reached', usedCount: 1, usageLimit: 1 });
    expect(coupons.DIWALI10?.status).toBe('Active');
  });

  it('updates a coupon: the new code works, the old one no longer does', async () => {
    const [c] = (await list()).filter((x) => x.code === 'DIWALI10');
    const r = await host.api<Coupon & { message: string }>('PUT', `/api/coupons/${c!.id}`, {
      token: admin,
      body: { ...diwali, code: 'diwali15', discountValue: 15, usageLimit: 100 },
    });
    expect(r).toMatchObject({
      status: 200,
      body: { message: 'Coupon updated successfully', code: 'DIWALI15', discountValue: 15, usageLimit: 100 },
    });
    expect((await validate('DIWALI10', 1000)).body).toMatchObject({ valid: false, message: 'Invalid coupon code' });
    expect((await validate('diwali15', 1000)).body).toMatchObject({ valid: true, discountAmount: 150 });
    expect(
      await host.api('PUT', '/api/coupons/00000000-0000-0000-0000-000000000000', { token: admin, body: diwali }),
    ).toMatchObject({ status: 404, body: { message: 'Coupon not found' } });
    // the freed code can be taken by another coupon
    expect((await create({ ...diwali, code: 'DIWALI10' })).status).toBe(201);
  });

  it('deletes a coupon: it leaves the list, stops validating, and its code is free again', async () => {
    const [c] = (await list()).filter((x) => x.code === 'DIWALI15');
    expect(await host.api('DELETE', `/api/coupons/${c!.id}`, { token: admin })).toMatchObject({
      status: 200,
      body: { message: 'Coupon deleted successfully', id: c!.id },
    });
    expect((await list()).some((x) => x.code === 'DIWALI15')).toBe(false);
    expect((await validate('DIWALI15', 1000)).body).toMatchObject({ valid: false, message: 'Invalid coupon code' });
    expect((await host.api('DELETE', `/api/coupons/${c!.id}`, { token: admin })).status).toBe(404);
    expect((await create({ ...diwali, code: 'DIWALI15' })).status).toBe(201);
    const { rows } = await host.db.pool.query(
      `SELECT type FROM checkout.events WHERE stream_id = $1 ORDER BY stream_version`,
      [`coupon-${c!.id}`],
    );
    expect(rows.map((r) => r.type)).toEqual(['CouponCreated', 'CouponUpdated', 'CouponDeleted']);
  });
});

describe('coupons API: validate (public)', () => {
  it('asks for a code when none is given', async () => {
    expect(await validate('  ', 1000)).toMatchObject({ status: 400, body: { message: 'Please enter a coupon code' } });
    expect(await host.api('POST', '/api/coupons/validate', { body: { orderTotal: 1000 } })).toMatchObject({
      status: 400,
      body: { message: 'Please enter a coupon code' },
    });
  });

  it('answers the discount in rupees: percentage capped by max discount, fixed never above the total', async () => {
    await create({ ...diwali, code: 'PCT20', discountValue: 20, maxDiscount: 150, minOrderAmount: 0 });
    await create({
      ...diwali,
      code: 'FLAT300',
      discountType: 'fixed',
      discountValue: '300',
      minOrderAmount: 0,
      maxDiscount: 50,
    });
    expect((await validate('pct20', 500)).body).toEqual({
      valid: true,
      coupon: expect.objectContaining({ code: 'PCT20', discountType: 'percentage', discountValue: 20 }),
      discountAmount: 100,
      message: 'Coupon applied successfully',
    });
    expect((await validate('PCT20', 1000)).body.discountAmount).toBe(150);
    expect((await validate('FLAT300', 1000)).body).toMatchObject({
      valid: true,
      discountAmount: 300,
      coupon: { code: 'FLAT300', discountType: 'fixed', discountValue: 300, maxDiscount: null },
    });
    expect((await validate('FLAT300', 199.99)).body.discountAmount).toBe(199.99);
  });

  it('says why a coupon does not apply', async () => {
    await create({ ...diwali, code: 'LATER', validFrom: indianDay(2) });
    const reason = async (code: string, orderTotal = 1000) => (await validate(code, orderTotal)).body;
    expect(await reason('NOSUCH')).toEqual({
      valid: false,
      coupon: null,
      discountAmount: 0,
      message: 'Invalid coupon code',
    });
    expect(await reason('SLEEPING')).toMatchObject({ valid: false, message: 'This coupon is not active' });
    expect(await reason('OLDNEWS')).toMatchObject({ valid: false, message: 'This coupon has expired' });
    expect(await reason('LATER')).toMatchObject({ valid: false, message: 'This coupon is not valid yet' });
    expect(await reason('ONCE')).toMatchObject({ valid: false, message: 'Coupon usage limit reached' });
    expect(await reason('DIWALI10', 499.99)).toMatchObject({ valid: false, message: 'Minimum order amount is ₹500' });
    expect(await reason('DIWALI10', 500)).toMatchObject({ valid: true, discountAmount: 50 });
  });
});
