import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountsService } from '@shop/accounts';
import { createCatalogService } from '@shop/catalog';
import { CatalogHistoryHttpClient } from '@shop/catalog/client';
import { createCheckoutService } from '@shop/checkout';
import { CheckoutHistoryHttpClient } from '@shop/checkout/client';
import { buyThroughSandbox } from '@shop/test-support/purchase';
import { startTestHost, type TestHost } from '@shop/test-support/test-host';
import { startTestShop, type TestShop } from '@shop/test-support/test-shop';
import { waitUntil } from '@shop/test-support/wait-until';
import type { ServiceModule } from '@shop/shared/runtime/service';
import { createOrderService } from '../index.ts';

/**
 * An order's history as the order service composes it from the other services' parts: in the all-in-one
 * shop in-process, as its own process over the catalog's and checkout's /internal routes. Both answer the
 * admin the same bytes.
 */
let shop: TestShop;
let parts: TestHost<ServiceModule[]>;
let admin: string;
let orderNumber: string;

/** The order service as its own process builds it, its history parts taken from `partsUrl` over HTTP. */
const orderProcess = (partsUrl: string) =>
  startTestHost({
    service: 'order',
    databaseUrl: shop.db.url,
    start: false,
    modules: (ctx) => {
      const token = ctx.tokens.signService('order');
      const history = {
        catalog: new CatalogHistoryHttpClient(partsUrl, token),
        checkout: new CheckoutHistoryHttpClient(partsUrl, token),
      };
      return [createAccountsService(ctx), createOrderService(ctx, { history })];
    },
  });

const historyText = async (url: string, order: string) => {
  const res = await fetch(`${url}/api/orders/admin/${order}/history`, {
    headers: { authorization: `Bearer ${admin}` },
  });
  return { status: res.status, text: await res.text() };
};

beforeAll(async () => {
  shop = await startTestShop();
  admin = await shop.login();
  const form = new FormData();
  for (const [k, v] of Object.entries({ name: 'History Kurta', price: '900', quantity: '10', category: 'Men' }))
    form.append(k, v);
  const product = await shop.api<{ id: string }>('POST', '/api/products', { token: admin, form });
  expect(product.status).toBe(201);
  orderNumber = await buyThroughSandbox(shop, 1, [{ productId: product.body.id, quantity: 2 }]);
  // The sale's stock commit is made by the settlement consumer, after the answer: wait for it.
  await waitUntil(async () => (await historyText(shop.url, orderNumber)).text.includes('StockCommitted'), 'the commit');
  // So is its shipment (after the order is placed, at the built-in Shiprocket sandbox): the history is complete.
  await waitUntil(
    async () => (await historyText(shop.url, orderNumber)).text.includes('ShipmentCreated'),
    'the shipment',
  );
  // The catalog's and checkout's processes, as far as their /internal routes go (nothing started).
  parts = await startTestHost({
    service: 'parts',
    databaseUrl: shop.db.url,
    start: false,
    modules: (ctx) => {
      const catalog = createCatalogService(ctx, { seed: false, internalRoutes: true });
      const checkout = createCheckoutService(ctx, {
        inventory: catalog.inventory,
        gatewayUrl: shop.url,
        waitForOrder: async () => null,
        allocateOrderNumbers: async () => [],
        internalRoutes: true,
      });
      return [createAccountsService(ctx), catalog, checkout];
    },
  });
}, 120_000);

afterAll(async () => {
  await parts?.stop();
  await shop?.stop();
});

describe("an order's history, composed from each service's part", () => {
  it('answers the same bytes in-process and over the services /internal routes', async () => {
    const embedded = await historyText(shop.url, orderNumber);
    expect(embedded.status).toBe(200);
    const types = (JSON.parse(embedded.text) as { events: Array<{ type: string; source: string }> }).events.map(
      (e) => `${e.source}:${e.type}`,
    );
    expect(types).toEqual(
      expect.arrayContaining(['catalog:StockReserved', 'checkout:PaymentVerified', 'orders:OrderPlaced']),
    );
    const order = await orderProcess(parts.url);
    try {
      expect(await historyText(order.url, orderNumber)).toEqual(embedded);
      expect((await historyText(order.url, 'NO-SUCH-ORDER')).status).toBe(404);
    } finally {
      await order.stop();
    }
  });

  it('answers 503 when a service holding a part cannot be reached, never a history with holes', async () => {
    const order = await orderProcess('http://127.0.0.1:9');
    try {
      const r = await historyText(order.url, orderNumber);
      expect(r.status).toBe(503);
    } finally {
      await order.stop();
    }
  });

  it('the parts answer service tokens only', async () => {
    const body = JSON.stringify({ razorpayOrderId: 'order_x' });
    const post = (token?: string) =>
      fetch(`${parts.url}/internal/checkout/payment-history`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body,
      });
    expect((await post()).status).toBe(401);
    expect((await post(admin)).status).toBe(403);
    const service = parts.ctx.tokens.signService('order');
    const answered = await post(service);
    expect(answered.status).toBe(200);
    expect(await answered.json()).toEqual({ events: [] });
  });
});
