import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Express, RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountsService, requireReviewer } from '@shop/accounts';
import { createCatalogService } from '@shop/catalog';
import { checkoutHistory, createCheckoutService } from '@shop/checkout';
import { createOrderService, inProcessOrderPlacement } from '@shop/order';
import { requireAdmin, requireAuth, requireService } from '@shop/shared/auth/tokens';
import { loadConfig } from '@shop/shared/config/config';
import type { RouteAuth, RouteSpec } from '@shop/shared/http/route-table';
import { buildServiceApp } from '@shop/shared/runtime/host';
import { createInfrastructure, type Infrastructure } from '@shop/shared/runtime/infrastructure';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import { ROUTE_TABLE } from './route-table.ts';

/** The guards a route may carry, and what each means in the table. */
const GUARDS = new Map<RequestHandler, RouteAuth>([
  [requireAuth, 'user'],
  [requireReviewer, 'user'],
  [requireAdmin, 'admin'],
  [requireService, 'service'],
]);
/** Every process's own routes, outside the table (health and metrics). */
const HOST_ROUTES = new Set(['get /api/health', 'get /metrics']);

interface Layer {
  name: string;
  slash?: boolean;
  handle: RequestHandler & { stack?: Layer[] };
  route?: { path: string; methods: Record<string, boolean>; stack: Layer[] };
}
interface Mounted {
  method: string;
  path: string;
  guards: RouteAuth[];
}

/** Every route of an express app: route layers, and those of routers mounted with use() (at '/'). */
function mountedRoutes(app: Express): Mounted[] {
  const out: Mounted[] = [];
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        const guards = layer.route.stack.flatMap((l) => GUARDS.get(l.handle) ?? []);
        for (const method of Object.keys(layer.route.methods)) out.push({ method, path: layer.route.path, guards });
      } else if (layer.name === 'router' && layer.handle.stack) {
        // The services mount their routers at '/', so a route's own path is its full path.
        expect(layer.slash, 'a router mounted under a path prefix').toBe(true);
        walk(layer.handle.stack);
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
  return out;
}

const key = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

describe('route table', () => {
  let db: TestDatabase;
  let infra: Infrastructure;
  let dataDir: string;
  let mounted: Mounted[];

  beforeAll(async () => {
    db = await createTestDatabase({ migrate: false });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'route-table-'));
    const config = loadConfig({
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      JWT_SECRET: 'test-secret-that-is-long-enough',
    });
    infra = await createInfrastructure(config, 'route-table');
    const ctx = infra.context;
    // Every module as its own process builds it (each with its /internal/* routes); the embedded shop mounts
    // the same routers without those. Nothing is started: only the routers are read.
    const catalog = createCatalogService(ctx, { seed: false, internalRoutes: true });
    const modules = [
      createAccountsService(ctx, { internalRoutes: true }),
      catalog,
      createCheckoutService(ctx, {
        internalRoutes: true,
        inventory: catalog.inventory,
        gatewayUrl: 'http://127.0.0.1:1',
        waitForOrder: (payment, timeoutMs) => inProcessOrderPlacement(ctx).orderOfPayment(payment, timeoutMs),
        allocateOrderNumbers: (count) => inProcessOrderPlacement(ctx).allocateOrderNumbers(count),
      }),
      createOrderService(ctx, {
        internalRoutes: true,
        history: { catalog: catalog.history, checkout: checkoutHistory(ctx.pool) },
      }),
    ];
    mounted = mountedRoutes(buildServiceApp(infra, modules, { service: 'route-table' })).filter(
      (r) => !HOST_ROUTES.has(key(r)),
    );
  });

  afterAll(async () => {
    await infra?.close();
    await db?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('walks the mounted routers (the walk itself finds routes, guards and internal routes)', () => {
    expect(mounted.length).toBeGreaterThan(50);
    expect(mounted.find((r) => key(r) === 'get /api/orders')?.guards).toEqual(['user']);
    expect(mounted.some((r) => r.path.startsWith('/internal/'))).toBe(true);
  });

  it('has one spec per mounted route, and no spec for a route nobody mounts', () => {
    const table = ROUTE_TABLE.map(key);
    expect(new Set(table).size, 'a route specified twice').toBe(table.length);
    const routes = mounted.map(key);
    expect(new Set(routes).size, 'a route mounted twice').toBe(routes.length);
    expect([...table].sort()).toEqual([...routes].sort());
  });

  it('gives each route the auth of the guard it really uses (none for public and signed ones)', () => {
    const byKey = new Map(mounted.map((r) => [key(r), r]));
    const wrong = ROUTE_TABLE.flatMap((spec: RouteSpec) => {
      const guards = byKey.get(key(spec))?.guards ?? [];
      const expected = spec.auth === 'public' || spec.auth === 'signed' ? [] : [spec.auth];
      return JSON.stringify(guards) === JSON.stringify(expected)
        ? []
        : [`${key(spec)}: ${spec.auth} but guards ${guards}`];
    });
    expect(wrong).toEqual([]);
  });

  it('declares its path parameters, and only routes answering 401 are guarded', () => {
    const problems = ROUTE_TABLE.flatMap((spec) => {
      const names = [...spec.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
      const shape = (spec.params as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};
      const declared = Object.keys(shape);
      const out: string[] = [];
      if (JSON.stringify(names.sort()) !== JSON.stringify(declared.sort()))
        out.push(`${key(spec)}: path parameters ${names} but params ${declared}`);
      if (spec.auth !== 'public' && spec.auth !== 'signed' && !spec.responses[401]) out.push(`${key(spec)}: no 401`);
      if (spec.auth === 'admin' && !spec.responses[403]) out.push(`${key(spec)}: no 403`);
      if (!Object.keys(spec.responses).some((s) => s.startsWith('2'))) out.push(`${key(spec)}: no 2xx`);
      return out;
    });
    expect(problems).toEqual([]);
  });
});
