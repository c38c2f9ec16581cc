import fs from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountsService } from '@shop/accounts';
import { createCatalogService } from '@shop/catalog';
import { createCheckoutService } from '@shop/checkout';
import { createOrderService } from '@shop/order';
import type { OpenApiDocument } from '@shop/shared/http/openapi';
import { createLogger } from '@shop/shared/observability/logger';
import { Metrics } from '@shop/shared/observability/metrics';
import { listen } from '@shop/shared/runtime/host';
import type { ServiceModule } from '@shop/shared/runtime/service';
import { httpClient } from '@shop/test-support/http';
import { startTestHost, type TestHost } from '@shop/test-support/test-host';
import { startTestShop, type TestShop } from '@shop/test-support/test-shop';
import { createProxyGateway } from './proxy.ts';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Every (METHOD, path) of the document, `GET /api/products/{id}`. */
const operationsOf = (doc: OpenApiDocument) =>
  Object.entries(doc.paths).flatMap(([p, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({ method: m, path: p, op: item[m]! })),
  );

/**
 * The (METHOD, path) rows of README.md's `## API` table: the code spans of each row's first cell,
 * `GET /api/x`, `GET/POST /api/y` (both methods), `GET /api/products?sort=...` (the path without the query).
 */
function readmeRoutes(): string[] {
  const readme = fs.readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  const section = readme.split(/^## API$/m)[1]!.split(/^## /m)[0]!;
  const rows = section.split('\n').filter((l) => l.startsWith('| `'));
  expect(rows.length).toBeGreaterThan(30);
  return rows.flatMap((row) =>
    [...row.split('|')[1]!.matchAll(/`([A-Z/]+) ([^`\s]+)`/g)].flatMap((m) =>
      m[1]!.split('/').map((method) => `${method} ${m[2]!.split('?')[0]}`),
    ),
  );
}
/** README rows of every process's own routes, outside the route table. */
const HOST_ROUTES = new Set(['GET /api/health', 'GET /metrics']);

describe('OpenAPI document', () => {
  let shop: TestShop;
  let doc: OpenApiDocument;
  // The services' own processes' routes (/internal/*), which the embedded shop does not mount.
  let internal: TestHost<ServiceModule[]>;

  beforeAll(async () => {
    shop = await startTestShop();
    const r = await shop.api<OpenApiDocument>('GET', '/api/openapi.json');
    expect(r.status).toBe(200);
    doc = r.body;

    // Every service's /internal/* as its own process serves it (HTTP only, nothing started).
    internal = await startTestHost({
      service: 'internal',
      start: false,
      modules: (ctx) => {
        const catalog = createCatalogService(ctx, { seed: false, internalRoutes: true });
        const checkout = createCheckoutService(ctx, {
          inventory: catalog.inventory,
          gatewayUrl: 'http://127.0.0.1:1',
          waitForOrder: async () => null,
          allocateOrderNumbers: async () => [],
          internalRoutes: true,
        });
        const history = { catalog: catalog.history, checkout: checkout.history };
        const accounts = createAccountsService(ctx, { internalRoutes: true });
        return [accounts, catalog, checkout, createOrderService(ctx, { internalRoutes: true, history })];
      },
    });
  }, 60_000);

  afterAll(async () => {
    await internal?.stop();
    await shop?.stop();
  });

  it('is a valid OpenAPI 3.1 document: responses everywhere, unique operation ids, declared path parameters', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    const ops = operationsOf(doc);
    expect(ops.length).toBeGreaterThan(50);
    const problems = ops.flatMap(({ method, path: p, op }) => {
      const out: string[] = [];
      if (Object.keys(op.responses).length === 0) out.push(`${method} ${p}: no responses`);
      const inPath = [...p.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const declared = (op.parameters ?? []).filter((x) => x.in === 'path').map((x) => x.name);
      if (JSON.stringify(inPath.sort()) !== JSON.stringify(declared.sort()))
        out.push(`${method} ${p}: path parameters ${declared}`);
      if (op['x-auth'] !== 'public' && op.security.some((s) => Object.keys(s).length === 0))
        out.push(`${method} ${p}: ${op['x-auth']} but anonymous allowed`);
      return out;
    });
    expect(problems).toEqual([]);
    const ids = ops.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    // The push stream is an event stream; a multipart route's body is a form.
    expect(Object.keys(doc.paths['/api/orders/stream']!.get!.responses['200']!.content!)).toEqual([
      'text/event-stream',
    ]);
    expect(Object.keys(doc.paths['/api/products']!.post!.requestBody!.content)).toContain('multipart/form-data');
  });

  it('has bodies and parameters from the zod schemas the handlers parse with', () => {
    const register = doc.paths['/api/auth/register']!.post!.requestBody!.content['application/json']!.schema;
    expect(register).toMatchObject({ type: 'object', required: ['name', 'email', 'phone', 'password'] });
    expect(register).toMatchObject({ properties: { password: { type: 'string', minLength: 6 } } });
    const status =
      doc.paths['/api/orders/admin/{orderNumber}/status']!.patch!.requestBody!.content['application/json']!;
    expect(status.schema).toMatchObject({
      properties: { deliveryStatus: { enum: ['Processing', 'Out for Delivery', 'Delivered'] } },
    });
    const list = doc.paths['/api/products']!.get!.parameters!;
    expect(list.map((p) => `${p.in}:${p.name}:${p.required}`).sort()).toEqual([
      'query:collection:false',
      'query:includeDelisted:false',
      'query:sort:false',
    ]);
    // A preprocessed field the handler accepts left out is not required (coupon: validFrom, description ...).
    const coupon = doc.paths['/api/coupons']!.post!.requestBody!.content['application/json']!.schema;
    expect(coupon.required).toEqual(['code', 'discountType', 'discountValue']);
  });

  it('lists only routes that exist: each answers its method with something other than "No route for"', async () => {
    const internalApi = internal.api;
    const missing: string[] = [];
    for (const { method, path: p } of operationsOf(doc)) {
      const url = p.replace(/\{\w+\}/g, 'no-such-id');
      const api = p.startsWith('/internal/') ? internalApi : shop.api;
      // No token: guarded routes answer 401 and public writes 400 for the empty body, so nothing changes.
      const r = await api<{ message?: unknown } | string>(method.toUpperCase(), url, {
        ...(method === 'get' ? {} : { body: {} }),
      });
      const message = typeof r.body === 'object' && r.body ? r.body.message : undefined;
      if (r.status === 404 && typeof message === 'string' && message.startsWith('No route for'))
        missing.push(`${method} ${p}`);
      else if (r.status >= 500) missing.push(`${method} ${p}: ${r.status}`);
    }
    expect(missing).toEqual([]);
    // The check itself tells a missing route.
    const none = await shop.api<{ message: string }>('GET', '/api/no-such-route');
    expect(none.body.message).toBe('No route for GET /api/no-such-route');
  });

  it('is shown as an HTML page at /api/docs listing each route', async () => {
    const r = await fetch(`${shop.url}/api/docs`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await r.text();
    const absent = operationsOf(doc)
      .map(({ method, path: p }) => `<code>${method.toUpperCase()} ${p}</code>`)
      .filter((heading) => !html.includes(heading));
    expect(absent).toEqual([]);
  });

  it("matches README's API table, row for row", () => {
    const readme = new Set(readmeRoutes().filter((r) => !HOST_ROUTES.has(r)));
    const documented = new Set(operationsOf(doc).map(({ method, path: p }) => `${method.toUpperCase()} ${p}`));
    expect({
      notInReadme: [...documented].filter((r) => !readme.has(r)).sort(),
      notInDocument: [...readme].filter((r) => !documented.has(r)).sort(),
    }).toEqual({ notInReadme: [], notInDocument: [] });
  });

  it('is served by the distributed gateway too, from its own route table', async () => {
    const gateway = createProxyGateway({
      services: {},
      logger: createLogger('gateway', 'silent'),
      metrics: new Metrics('gateway'),
    });
    const { server, port } = await listen(gateway, 0, '127.0.0.1');
    try {
      const api = httpClient(`http://127.0.0.1:${port}`);
      const r = await api<OpenApiDocument>('GET', '/api/openapi.json');
      expect(r.status).toBe(200);
      expect(r.body).toEqual(doc);
      const page = await fetch(`http://127.0.0.1:${port}/api/docs`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<code>GET /api/orders/stream</code>');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
