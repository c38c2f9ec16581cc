import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startProcess, waitForHealthy, type Proc } from '../../scripts/distributed-processes.ts';
import { httpClient } from '@shop/test-support/http';
import { freePort } from '../../services/shared/src/db/free-port.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-embedded-'));
let proc: Proc | undefined;

async function startShop(port: number) {
  // The embedded default: no DATABASE_URL, REDIS_URL or KAFKA_BROKERS, default admin.
  proc = startProcess('shop', 'services/gateway/src/main.ts', {
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: undefined,
    REDIS_URL: undefined,
    KAFKA_BROKERS: undefined,
    ADMIN_EMAIL: undefined,
    ADMIN_PASSWORD: undefined,
    SERVICE_URLS: undefined,
    LOG_LEVEL: 'warn',
  });
  await waitForHealthy(`http://127.0.0.1:${port}/api/health`, proc, 120_000);
  return proc;
}

async function stopShop() {
  const p = proc;
  if (!p || p.child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    p.child.once('exit', () => resolve());
    p.child.kill('SIGTERM');
  });
}

afterAll(async () => {
  await stopShop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('embedded default (as `npm start` runs it)', () => {
  it('starts with no services running, serves the demo catalog, the admin logs in, a shopper is refused admin paths; a restart keeps everything', async () => {
    const port = await freePort();
    const p = await startShop(port);
    const base = `http://127.0.0.1:${port}`;
    const api = httpClient(base);

    expect(p.output.join('\n')).toContain(`running at http://127.0.0.1:${port}`);
    expect(p.output.join('\n')).toContain('Admin login: admin@shop.local / admin123');

    const health = await api<{ status: string; mode: unknown; dependencies: Array<{ name: string; ok: boolean }> }>(
      'GET',
      '/api/health',
    );
    expect(health.status).toBe(200);
    expect(health.body.mode).toEqual({ db: 'embedded', cache: 'memory', bus: 'postgres-log' });
    expect(health.body.dependencies.every((d) => d.ok)).toBe(true);

    const products = await api<Array<{ category: string }>>('GET', '/api/products');
    expect(products.status).toBe(200);
    expect(products.body.length).toBeGreaterThanOrEqual(30);

    const admin = await api<{ user: { isAdmin: boolean }; token: string }>('POST', '/api/auth/login', {
      body: { email: 'admin@shop.local', password: 'admin123' },
    });
    expect(admin.status).toBe(200);
    expect(admin.body.user.isAdmin).toBe(true);
    expect((await api('GET', '/api/auth/admin/users', { token: admin.body.token })).status).toBe(200);

    const reg = await api<{ token: string }>('POST', '/api/auth/register', {
      body: { name: 'Meera', email: 'meera@example.in', phone: '+919811111111', password: 'meera123' },
    });
    expect(reg.status).toBe(201);
    expect((await api('GET', '/api/auth/admin/users', { token: reg.body.token })).status).toBe(403);

    // the web app is served, with client-side routes falling back to it
    const page = await fetch(`${base}/products`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');

    // metrics are for admins (or the METRICS_TOKEN bearer), not the public
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    const metrics = await (
      await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${admin.body.token}` } })
    ).text();
    expect(metrics).toContain('events_appended_total');

    // restart on the same data folder: nothing lost, nothing seeded twice
    await stopShop();
    const port2 = await freePort();
    await startShop(port2);
    const api2 = httpClient(`http://127.0.0.1:${port2}`);
    const again = await api2<unknown[]>('GET', '/api/products');
    expect(again.body.length).toBe(products.body.length);
    expect(
      (await api2('POST', '/api/auth/login', { body: { email: 'meera@example.in', password: 'meera123' } })).status,
    ).toBe(200);
  });
});
