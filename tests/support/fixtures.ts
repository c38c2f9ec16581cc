import zlib from 'node:zlib';
import { expect } from 'vitest';
import type { HttpClient } from './http.ts';

/** The admin a shop seeds when neither ADMIN_EMAIL nor ADMIN_PASSWORD is set (the demo's). */
export const DEFAULT_ADMIN = { email: 'admin@shop.local', password: 'admin123' };

/** A delivery address as the checkout and account screens send it (Bengaluru, a valid PIN code). */
export const ADDRESS = {
  name: 'Asha Rao',
  phone: '+919812345678',
  email: 'asha@example.in',
  addressLine1: '12 MG Road',
  addressLine2: 'Near the metro',
  city: 'Bengaluru',
  state: 'Karnataka',
  zipCode: '560001',
};

/** Lists a product through the admin API's multipart form, as the admin screen sends it; answers its id. */
export async function createProduct(api: HttpClient, token: string, fields: Record<string, string>): Promise<string> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const created = await api<{ id: string }>('POST', '/api/products', { token, form });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id;
}

/**
 * Makes a coupon through the admin API: 10% off any order (no minimum), with `coupon`'s code, usage limit
 * and any other fields; answers the shop's reply for the caller to check.
 */
export const createTenPercentCoupon = (
  api: HttpClient,
  token: string,
  coupon: { code: string; usageLimit: number } & Record<string, unknown>,
) =>
  api<Record<string, unknown>>('POST', '/api/coupons', {
    token,
    body: { ...coupon, discountType: 'percentage', discountValue: 10, minOrderAmount: 0 },
  });

/** A 1x1 transparent PNG: an image upload the shop accepts. */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * PNG_1X1 padded to `size` bytes by a text comment (a tEXt chunk): a valid image of that size, for tests of
 * upload sizes (the shop decodes every upload, so filler after a PNG signature is not an image).
 */
export function pngOfSize(size: number): Buffer {
  const iend = PNG_1X1.length - 12;
  const text = Buffer.concat([Buffer.from('Comment\0', 'latin1'), Buffer.alloc(size - PNG_1X1.length - 12 - 8, 'x')]);
  const type = Buffer.from('tEXt', 'latin1');
  const chunk = Buffer.alloc(12 + text.length);
  chunk.writeUInt32BE(text.length, 0);
  type.copy(chunk, 4);
  text.copy(chunk, 8);
  chunk.writeUInt32BE(zlib.crc32(Buffer.concat([type, text])), 8 + text.length);
  return Buffer.concat([PNG_1X1.subarray(0, iend), chunk, PNG_1X1.subarray(iend)]);
}
