import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../observability/logger.ts';
import { Metrics } from '../observability/metrics.ts';
import { listen } from '../runtime/host.ts';
import { apiNotFound, createHttpApp, errorHandler } from './app.ts';

/** Issue 13: security headers, the CORS policy and body limits on every process's app (createHttpApp). */

const ALLOWED = 'https://partner.example.in';
const servers: Server[] = [];

/** An app as the services build it, with one JSON route and one that answers what it read. */
async function startApp(corsOrigins?: string): Promise<string> {
  const app = createHttpApp({ logger: createLogger('test', 'silent'), metrics: new Metrics('test'), corsOrigins });
  app.get('/api/things', (_req, res) => void res.json([{ id: 1 }]));
  app.post('/api/things', (req, res) => void res.status(201).json({ got: req.body as unknown }));
  app.use('/api', apiNotFound);
  app.use(errorHandler(createLogger('test', 'silent')));
  const { server, port } = await listen(app, 0, '127.0.0.1');
  servers.push(server);
  return `http://127.0.0.1:${port}`;
}

let sameOrigin: string;
let withCors: string;
beforeAll(async () => {
  sameOrigin = await startApp();
  withCors = await startApp(`${ALLOWED}, http://localhost:5173`);
});
afterAll(async () => {
  for (const s of servers) await new Promise((r) => s.close(r));
});

describe('security headers (helmet) on API answers', () => {
  it('a JSON answer, a 404 and a 400 all carry the strict API CSP, DENY framing and nosniff', async () => {
    const answers = [
      await fetch(`${sameOrigin}/api/things`),
      await fetch(`${sameOrigin}/api/nothing-here`),
      await fetch(`${sameOrigin}/api/things`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{not json',
      }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 404, 400]);
    for (const r of answers) {
      expect(r.headers.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'");
      expect(r.headers.get('x-frame-options')).toBe('DENY');
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('referrer-policy')).toBe('no-referrer');
      expect(r.headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
      expect(r.headers.get('x-powered-by')).toBeNull();
    }
  });

  it('sends HSTS only on https requests (here: X-Forwarded-Proto https from a trusted proxy on loopback)', async () => {
    expect((await fetch(`${sameOrigin}/api/things`)).headers.get('strict-transport-security')).toBeNull();
    const overTls = await fetch(`${sameOrigin}/api/things`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(overTls.headers.get('strict-transport-security')).toBe('max-age=15552000');
  });
});

describe('CORS policy', () => {
  it('by default (no CORS_ORIGINS) no origin is allowed: no Access-Control-Allow-Origin, preflight not answered', async () => {
    const r = await fetch(`${sameOrigin}/api/things`, { headers: { origin: ALLOWED } });
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
    const pre = await fetch(`${sameOrigin}/api/things`, {
      method: 'OPTIONS',
      headers: { origin: ALLOWED, 'access-control-request-method': 'POST' },
    });
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    expect(pre.headers.get('access-control-allow-methods')).toBeNull();
  });

  it('a listed origin gets its preflight answered 204 with the methods and headers the API uses, no credentials', async () => {
    const pre = await fetch(`${withCors}/api/things`, {
      method: 'OPTIONS',
      headers: {
        origin: ALLOWED,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(pre.headers.get('access-control-allow-methods')).toBe('GET,HEAD,POST,PUT,PATCH,DELETE');
    expect(pre.headers.get('access-control-allow-headers')).toBe('Authorization,Content-Type');
    expect(pre.headers.get('access-control-allow-credentials')).toBeNull();
    expect(pre.headers.get('vary')).toMatch(/origin/i);

    const r = await fetch(`${withCors}/api/things`, { headers: { origin: 'http://localhost:5173' } });
    expect(r.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(r.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('an origin not listed (or one differing only by port or scheme) is not allowed', async () => {
    for (const origin of ['https://evil.example', 'http://partner.example.in', 'https://partner.example.in:8443']) {
      const r = await fetch(`${withCors}/api/things`, { headers: { origin } });
      expect(r.headers.get('access-control-allow-origin'), origin).toBeNull();
      const pre = await fetch(`${withCors}/api/things`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'DELETE' },
      });
      expect(pre.headers.get('access-control-allow-origin'), origin).toBeNull();
    }
  });
});

describe('request bodies', () => {
  const post = (body: string, contentType?: string) =>
    fetch(`${sameOrigin}/api/things`, {
      method: 'POST',
      headers: contentType ? { 'content-type': contentType } : {},
      body,
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as { message?: string; got?: unknown } }));

  it('a JSON body over 1 MB is refused 413 "Request body too large"; one just under is read', async () => {
    const big = JSON.stringify({ note: 'x'.repeat(1024 * 1024) });
    expect(await post(big, 'application/json')).toEqual({ status: 413, body: { message: 'Request body too large' } });
    const fits = JSON.stringify({ note: 'x'.repeat(1024 * 1024 - 100) });
    expect((await post(fits, 'application/json')).status).toBe(201);
  });

  it('a body of a type the API does not read is refused 415 saying to send JSON', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const r = await post(type === 'application/x-www-form-urlencoded' ? 'name=Shawl' : '{"name":"Shawl"}', type);
      expect(r.status, type).toBe(415);
      expect(r.body.message).toBe(
        `Unsupported Content-Type "${type}": send the body as JSON with Content-Type application/json (image uploads: multipart/form-data)`,
      );
    }
  });

  it('a body with no Content-Type at all is refused 415; a POST with no body and a JSON body are not', async () => {
    const raw = await fetch(`${sameOrigin}/api/things`, { method: 'POST', body: new Uint8Array([123, 125]) });
    expect(raw.status).toBe(415);
    expect(((await raw.json()) as { message: string }).message).toMatch(/^Unsupported Content-Type \(none given\)/);
    expect((await fetch(`${sameOrigin}/api/things`, { method: 'POST' })).status).toBe(201);
    expect(await post('{"name":"Shawl"}', 'application/json; charset=utf-8')).toEqual({
      status: 201,
      body: { got: { name: 'Shawl' } },
    });
  });
});
