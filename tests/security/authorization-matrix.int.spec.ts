import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_TABLE } from '../../services/gateway/src/route-table.ts';
import type { RouteSpec } from '../../services/shared/src/http/route-table.ts';
import { QUERY_TOKEN_PATHS } from '../../services/shared/src/auth/tokens.ts';
import { photoRenditions } from '../../services/shared/src/contracts/photo-renditions.ts';
import { PNG_1X1 } from '@shop/test-support/fixtures';
import { multipartForm } from '@shop/test-support/http';
import { startTestShop, type TestShop } from '@shop/test-support/test-shop';
import {
  CREDENTIALS,
  cellName,
  describeWrong,
  expectation,
  fillPath,
  meets,
  minimalBody,
  type Cell,
  type Credential,
} from './authorization-matrix.ts';
import { expiredJwt, jwt, serviceJwt } from './forged-tokens.ts';
import { startInternalRoutes } from './internal-host.ts';
import { addAddress, buyAs, createProduct, registerShopper, removeAccount } from './shoppers.ts';

/**
 * Every route of the route table x every kind of credential, against the running shop (and /internal/*
 * against the catalog and order services' own apps, as distributed mode serves them). Path parameters are
 * real ids (made below), so a route that has no guard would answer as if for a caller.
 */
let shop: TestShop;
let internal: { url: string; close(): Promise<void> };
const tokens = new Map<Credential, string>();
const ids = new Map<string, string>();

beforeAll(async () => {
  shop = await startTestShop();
  internal = await startInternalRoutes(shop);
  const secret = shop.infra.config.JWT_SECRET;
  const admin = await shop.login();
  const me = await shop.api<{ id: string; email: string }>('GET', '/api/auth/me', { token: admin });
  const shopper = await registerShopper(shop, 'Asha Rao', 'asha.matrix@example.in');
  const gone = await registerShopper(shop, 'Gone Away', 'gone.matrix@example.in');
  await removeAccount(shop, gone.id);
  // Forged tokens claim the admin, so one accepted by mistake would open even the admin routes.
  const adminClaims = { sub: me.body.id, email: me.body.email, name: 'Admin', isAdmin: true };
  tokens.set('expired token', expiredJwt(adminClaims, secret));
  tokens.set('other secret', jwt(adminClaims, { secret: 'another-secret-that-is-long-enough!!' }));
  tokens.set('alg none', jwt(adminClaims, { secret, alg: 'none' }));
  tokens.set('deleted user', gone.token);
  tokens.set('shopper', shopper.token);
  tokens.set('service', serviceJwt('checkout', secret));
  tokens.set('admin', admin);

  // Real things for every path parameter.
  const productId = await createProduct(shop, admin, 'Matrix Kurta');
  const collection = await shop.api<{ id: string }>('POST', '/api/collections', {
    token: admin,
    body: { name: 'Festive' },
  });
  const section = await shop.api<{ id: string }>('POST', '/api/home/sections', {
    token: admin,
    body: { name: 'New in', contentIds: [productId] },
  });
  const coupon = await shop.api<{ id: string }>('POST', '/api/coupons', {
    token: admin,
    body: { code: 'MATRIX10', discountType: 'fixed', discountValue: 10, minOrderAmount: 0 },
  });
  const testimonial = await shop.api<{ id: string }>('POST', '/api/testimonials', {
    token: shopper.token,
    body: { rating: 5, text: 'Lovely fabric' },
  });
  const photo = await shop.api<{ image: string }>('POST', '/api/collections', {
    token: admin,
    form: multipartForm({ name: 'Photographed' }, [
      { field: 'image', bytes: PNG_1X1, type: 'image/png', name: 'p.png' },
    ]),
  });
  for (const r of [collection, section, coupon, testimonial, photo]) expect(r.status, JSON.stringify(r.body)).toBe(201);
  ids.set('/api/products/', productId);
  ids.set('/api/collections/', collection.body.id);
  ids.set('/api/home/sections/', section.body.id);
  ids.set('/api/coupons/', coupon.body.id);
  ids.set('/api/testimonials/admin/', testimonial.body.id);
  ids.set('/api/photos/', photoRenditions(photo.body.image)!.id);
  ids.set('/api/addresses/', await addAddress(shop, shopper));
  ids.set(':orderNumber', (await buyAs(shop, shopper, productId)).orderNumber);
});
afterAll(async () => {
  await internal?.close();
  await shop?.stop();
});

const paramValue = (route: RouteSpec) => (param: string) => {
  if (param === 'orderNumber') return ids.get(':orderNumber')!;
  for (const [prefix, id] of ids) if (param === 'id' && route.path.startsWith(prefix)) return id;
  throw new Error(`no real value for :${param} of ${route.path}: add one to the matrix's fixtures`);
};

type Carrier = 'header' | 'query';
let nextClient = 1;
/** One cell: the route's request with the credential, the status (a stream's only; its body is not awaited). */
async function tryCell(route: RouteSpec, credential: Credential, carrier: Carrier): Promise<Cell> {
  const base = route.path.startsWith('/internal/') ? internal.url : shop.url;
  const n = nextClient++;
  // each cell from a client address of its own: per-address rate limits must not answer for the guard
  const headers: Record<string, string> = { 'x-forwarded-for': `10.88.${(n >> 8) & 255}.${n & 255}` };
  const token = tokens.get(credential);
  if (token && carrier === 'header') headers.authorization = `Bearer ${token}`;
  const query = token && carrier === 'query' ? `?access_token=${encodeURIComponent(token)}` : '';
  const { json, form } = minimalBody(route);
  let body: RequestInit['body'];
  if (form) body = form;
  else if (json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(json);
  }
  const abort = new AbortController();
  const res = await fetch(base + fillPath(route.path, paramValue(route)) + query, {
    method: route.method.toUpperCase(),
    headers,
    body,
    signal: abort.signal,
  });
  let text = '';
  if (route.stream && res.status === 200) abort.abort();
  else text = await res.text();
  const cell = { route, credential: carrier === 'query' ? (`${credential} in ?access_token` as const) : credential };
  // A token in the URL counts only on a push stream (EventSource cannot send headers); elsewhere it is ignored.
  const counted = carrier === 'query' && !route.stream ? 'no token' : credential;
  return { ...cell, expected: expectation(route.auth, counted), status: res.status, body: text };
}

describe('authorization matrix (route table x credentials)', () => {
  it('covers every kind of route', () => {
    const kinds = new Set(ROUTE_TABLE.map((r) => r.auth));
    expect([...kinds].sort()).toEqual(['admin', 'public', 'service', 'signed', 'user']);
  });

  it('takes a token in the URL exactly on the push streams of the table', () => {
    const streams = ROUTE_TABLE.filter((r) => r.stream).map((r) => r.path);
    expect(streams.length).toBeGreaterThan(0);
    expect([...QUERY_TOKEN_PATHS].sort()).toEqual(streams.sort());
  });

  it('answers every cell as its route auth says: invalid tokens 401, wrong role 403, allowed past the guard', async () => {
    const cells: Cell[] = [];
    for (const route of ROUTE_TABLE)
      for (const credential of CREDENTIALS) {
        expect(tokens.has(credential) || credential === 'no token', cellName({ route, credential })).toBe(true);
        cells.push(await tryCell(route, credential, 'header'));
        // `?access_token=` too: honoured on push streams only (EventSource cannot set headers), ignored elsewhere
        if (credential !== 'no token') cells.push(await tryCell(route, credential, 'query'));
      }
    const wrong = cells.filter((c) => !meets(c.expected, c.status));
    const passed = cells.filter((c) => c.expected.pass).length;
    console.log(
      `authorization matrix: ${ROUTE_TABLE.length} routes x ${CREDENTIALS.length} credentials ` +
        `(header, and ?access_token for the ${CREDENTIALS.length - 1} tokens) = ${cells.length} cells ` +
        `(${passed} allowed, ${cells.length - passed} refused), ${wrong.length} wrong` +
        wrong.map((c) => `\n  ${describeWrong(c)}`).join(''),
    );
    expect(wrong.map(describeWrong)).toEqual([]);
  });
});
