import fs from 'node:fs';
import type { Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpApp } from '@shop/shared/http/app';
import { createLogger } from '@shop/shared/observability/logger';
import { Metrics } from '@shop/shared/observability/metrics';
import { listen } from '@shop/shared/runtime/host';
import { serveWebApp } from './web.ts';

let server: Server;
let base: string;
let dist: string;
beforeAll(async () => {
  // A built web app of our own (the real one is built only for the e2e tier), served as the shop does it.
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Kapda</title><div id="root"></div>');
  fs.writeFileSync(path.join(dist, 'assets', 'app.js'), 'console.log(1);');
  const app = createHttpApp({ logger: createLogger('test', 'silent'), metrics: new Metrics('test') });
  serveWebApp(app, dist);
  const listening = await listen(app, 0, '127.0.0.1');
  server = listening.server;
  base = `http://127.0.0.1:${listening.port}`;
});
afterAll(async () => {
  await new Promise((r) => server?.close(r));
  if (dist) fs.rmSync(dist, { recursive: true, force: true });
});

/** The CSP as a map of directive -> sources. */
const directives = (csp: string | null) =>
  new Map(
    (csp ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name!, sources]),
  );

describe('security headers on the web app (issue 15, defect 8: no CSP or X-Frame-Options)', () => {
  it('the HTML (/ and any app path) carries a CSP, X-Frame-Options DENY and X-Content-Type-Options nosniff', async () => {
    for (const p of ['/', '/products/42', '/index.html']) {
      const r = await fetch(base + p);
      expect(r.status, p).toBe(200);
      expect(r.headers.get('content-type'), p).toMatch(/^text\/html/);
      expect(r.headers.get('x-frame-options'), p).toBe('DENY');
      expect(r.headers.get('x-content-type-options'), p).toBe('nosniff');
      expect(r.headers.get('content-security-policy'), p).toBeTruthy();
    }
  });

  it("the CSP lets the app load Razorpay's checkout script and the sandbox's (same origin), and nothing inline", async () => {
    const csp = directives((await fetch(base + '/')).headers.get('content-security-policy'));
    const scripts = csp.get('script-src')!;
    expect(scripts).toContain("'self'"); // /razorpay-sandbox/v1/checkout.js and the app's own bundles
    expect(scripts).toContain('https://checkout.razorpay.com');
    expect(scripts).not.toContain("'unsafe-inline'");
    expect(scripts).not.toContain("'unsafe-eval'");
    expect(csp.get('connect-src')).toContain("'self'"); // the API and the push stream
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('default-src')).toEqual(["'self'"]);
  });

  it('the JavaScript assets are served with nosniff', async () => {
    const r = await fetch(base + '/assets/app.js');
    expect(r.status).toBe(200);
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
