import { beforeAll, describe, expect, it } from 'vitest';
import { testShopForTests } from '@shop/test-support/file-shop';

/**
 * Issue 15, defect 6: a multipart body busboy cannot read made POST/PUT /api/products answer 500. Each is
 * now a 400 that says the multipart body is malformed and why.
 */

const running = testShopForTests();
let productId: string;
beforeAll(async () => {
  const r = await running.shop.api<{ id: string }>('POST', '/api/products', {
    token: running.admin,
    body: { name: 'Linen Shirt', price: 1499, quantity: 4 },
  });
  expect(r.status).toBe(201);
  productId = r.body.id;
});

const BOUNDARY = '----kapda-test-boundary';
const field = (name: string, value: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const complete = field('name', 'Shawl') + field('price', '10') + field('quantity', '1') + `--${BOUNDARY}--\r\n`;

const send = async (method: string, path: string, contentType: string, body: string) => {
  const r = await fetch(running.shop.url + path, {
    method,
    headers: { authorization: `Bearer ${running.admin}`, 'content-type': contentType },
    body,
  });
  return { status: r.status, body: (await r.json()) as { message: string } };
};

const routes = () =>
  [
    ['POST', '/api/products'],
    ['PUT', `/api/products/${productId}`],
  ] as const;

describe('malformed multipart on POST and PUT /api/products answers 400, not 500 (issue 15, defect 6)', () => {
  it('multipart/form-data without a boundary answers 400 "Malformed multipart/form-data body (Boundary not found)"', async () => {
    for (const [method, path] of routes()) {
      const r = await send(method, path, 'multipart/form-data', complete);
      expect(r.status, `${method} ${path}`).toBe(400);
      expect(r.body.message).toMatch(/^Malformed multipart\/form-data body \(Boundary not found\)/);
    }
  });

  it('a truncated multipart body (no closing boundary) answers 400 "Malformed multipart/form-data body"', async () => {
    for (const [method, path] of routes()) {
      const truncated = field('name', 'Shawl') + `--${BOUNDARY}\r\nContent-Disposition: form-data; name="pri`;
      const r = await send(method, path, `multipart/form-data; boundary=${BOUNDARY}`, truncated);
      expect(r.status, `${method} ${path}`).toBe(400);
      expect(r.body.message).toMatch(/^Malformed multipart\/form-data body \(Unexpected end of form\)/);
    }
  });

  it('a JSON body sent as multipart/form-data answers 400 "Malformed multipart/form-data body"', async () => {
    for (const [method, path] of routes()) {
      const json = JSON.stringify({ name: 'Shawl', price: 10, quantity: 1 });
      const r = await send(method, path, `multipart/form-data; boundary=${BOUNDARY}`, json);
      expect(r.status, `${method} ${path}`).toBe(400);
      expect(r.body.message).toMatch(/^Malformed multipart\/form-data body/);
      expect(r.body.message).toMatch(/application\/json/);
    }
  });

  it('a well-formed multipart body still creates and updates the product', async () => {
    const created = await send('POST', '/api/products', `multipart/form-data; boundary=${BOUNDARY}`, complete);
    expect(created.status).toBe(201);
    const updated = await send(
      'PUT',
      `/api/products/${productId}`,
      `multipart/form-data; boundary=${BOUNDARY}`,
      field('color', 'Indigo') + `--${BOUNDARY}--\r\n`,
    );
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ color: 'Indigo', name: 'Linen Shirt' });
  });
});
