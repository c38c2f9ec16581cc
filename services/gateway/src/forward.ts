import http, { type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { RequestHandler } from 'express';
import { createProxyMiddleware, debugProxyErrorsPlugin, proxyEventsPlugin } from 'http-proxy-middleware';
import type { ServiceUrls } from '@shop/shared/config/config';
import type { Logger } from '@shop/shared/observability/logger';
import { SERVICE_ROUTES } from './route-table.ts';

/** The service owning a path, by the documented route prefixes. */
export function ownerOf(pathname: string): string | undefined {
  for (const [service, prefixes] of Object.entries(SERVICE_ROUTES)) {
    if (prefixes.some((p) => pathname === p || pathname.startsWith(`${p}/`))) return service;
  }
  return undefined;
}

/** The largest body forwarded: JSON_BODY_LIMIT (1 MB), as the services read it. */
const MAX_FORWARDED_BODY_BYTES = 1024 * 1024;
/** The largest multipart form forwarded: the home page's 20 slides of 5 MB images and the text fields. */
const MAX_FORWARDED_FORM_BYTES = 128 * 1024 * 1024;
const TOO_LARGE = { message: 'Request body too large' };
const UNAVAILABLE = { message: 'Service temporarily unavailable, please try again' };

/** Headers of one connection, not of the message: never forwarded either way. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer'];

/** One forwarded request, as the proxy's events see it. */
interface Forwarding {
  target: URL;
  /** Set once this request no longer needs the service: its upstream errors are then of no interest. */
  done: boolean;
  upstream?: ClientRequest;
  answer?: IncomingMessage;
}

export interface ServiceForwarder {
  /** Forwards requests under a service's prefixes (SERVICE_ROUTES); others go to `next`. */
  handler: RequestHandler;
  /** For the server's 'upgrade' event: upgrades under a service's prefixes go to it, others are refused 404. */
  upgrade(req: IncomingMessage, socket: Socket, head: Buffer): void;
}

/**
 * Forwarding to the service processes through http-proxy-middleware, streaming bodies both ways (uploads and
 * Server-Sent Events pass through unbuffered) and connection upgrades. The gateway keeps for itself: the body
 * limits (413 before anything is forwarded when the length is declared, a chunked body cut when it passes the
 * limit), X-Forwarded-For / -Host and the request id, answers written without hop-by-hop headers (so a
 * draining gateway's `Connection: close` holds), 502 JSON when a service cannot be reached, and no more
 * forwarding of a body the service answered before reading whole.
 */
export function serviceForwarder(opts: { services: ServiceUrls; logger: Logger }): ServiceForwarder {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const forwarding = new WeakMap<IncomingMessage, Forwarding>();

  /** Stops forwarding the client's body and reads the rest of it into the void. */
  const stopForwarding = (req: IncomingMessage, f: Forwarding) => {
    f.done = true;
    req.unpipe();
    f.upstream?.destroy();
    req.resume();
  };

  /** The headers the service gets: the client's, minus hop-by-hop ones, with who asked and through which host. */
  const prepareHeaders = (req: IncomingMessage, id: string) => {
    const h = req.headers;
    h['x-request-id'] = id;
    h['x-forwarded-for'] = [h['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
    h['x-forwarded-host'] = h.host;
    // Node already told the client to continue; http-proxy skips its proxyReq event for a request that expects.
    delete h.expect;
  };

  // Targets parsed once (http-proxy would parse a URL string on every request).
  const targets = new Map<URL, { protocol: string; hostname: string; host: string; port: string }>();
  const targetOf = (url: URL) => {
    let t = targets.get(url);
    if (!t)
      targets.set(url, (t = { protocol: url.protocol, hostname: url.hostname, host: url.hostname, port: url.port }));
    return t;
  };
  const proxy = createProxyMiddleware<IncomingMessage, ServerResponse>({
    router: (req) => {
      const f = forwarding.get(req);
      return f && targetOf(f.target);
    },
    agent,
    // Without the default logger plugin (a line per request, built even when not printed: the gateway's own
    // request log says it) or the default error answer (errors are answered below).
    ejectPlugins: true,
    plugins: [debugProxyErrorsPlugin, proxyEventsPlugin],
    // Answers are written here (writeAnswer): http-proxy would copy the service's Connection header.
    selfHandleResponse: true,
    on: {
      proxyReq: (upstream, req) => {
        const f = forwarding.get(req);
        if (!f) return;
        f.upstream = upstream;
        if (f.done) upstream.destroy();
      },
      proxyRes: (answer, req, res) => {
        const f = forwarding.get(req);
        if (!f || f.done || res.headersSent) return void answer.destroy();
        f.answer = answer;
        const out: http.OutgoingHttpHeaders = {};
        for (const [k, v] of Object.entries(answer.headers)) if (!HOP_BY_HOP.includes(k) && v !== undefined) out[k] = v;
        res.writeHead(answer.statusCode ?? 502, out);
        if (String(answer.headers['content-type']).startsWith('text/event-stream')) res.flushHeaders();
        answer.pipe(res);
        // A service that answered before reading the whole body (a 413, a 401) leaves the rest unread: piping
        // it on would stall once the socket buffers fill, and the client's connection with it.
        answer.once('end', () => {
          if (!req.complete) stopForwarding(req, f);
        });
      },
      error: (err, req, res) => {
        const f = forwarding.get(req);
        if (f?.done) return;
        opts.logger.error({ err, reqId: req.headers['x-request-id'], target: f?.target.origin }, 'upstream failed');
        if (!('writeHead' in res)) return void res.destroy();
        if (!res.headersSent) {
          res.writeHead(502, { 'content-type': 'application/json; charset=utf-8' });
          res.end(JSON.stringify(UNAVAILABLE));
        } else res.destroy(err);
      },
    },
  });

  const handler: RequestHandler = (req, res, next) => {
    const owner = ownerOf(req.path);
    if (!owner) return next();
    const target = opts.services[owner as keyof ServiceUrls];
    if (!target) return void res.status(503).json({ message: `Service ${owner} is not configured (SERVICE_URLS)` });
    // Too large a body is answered 413 here, before any of it is forwarded when its length is declared; a
    // chunked one is cut when it passes the limit. Either way the rest of the body is read and dropped
    // (Node does so once the answer is sent), so the client gets the 413 rather than a reset connection.
    const maxBytes = req.is('multipart/form-data') ? MAX_FORWARDED_FORM_BYTES : MAX_FORWARDED_BODY_BYTES;
    if (Number(req.headers['content-length'] ?? 0) > maxBytes) return void res.status(413).json(TOO_LARGE);
    const f: Forwarding = { target, done: false };
    forwarding.set(req, f);
    // A body without a declared length comes chunked (without either, there is none to count).
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] !== undefined) {
      let seen = 0;
      req.on('data', (chunk: Buffer) => {
        seen += chunk.length;
        if (seen <= maxBytes || f.done) return;
        if (!res.headersSent) res.status(413).json(TOO_LARGE);
        stopForwarding(req, f);
      });
      // Counting must not start the flow: the proxy pipes the body on (and resumes it) once it forwards.
      req.pause();
    }
    prepareHeaders(req, String(req.id));
    // Node frames the forwarded body itself (chunked unless its length is known) and keeps its own connection.
    for (const h of HOP_BY_HOP) delete req.headers[h];
    // A client gone (or a push stream ended by a draining gateway) ends the upstream request too.
    res.once('close', () => {
      if (f.answer?.complete) return;
      f.done = true;
      f.upstream?.destroy();
    });
    // A body already read before the framework (raw-create-order.ts hands over what it did not answer): http-proxy
    // pipes the request on, so this request's pipe writes that body (its 'proxyReq' event may come only once a
    // pooled socket is free, after the ended request's pipe would have ended the upstream request).
    const read = (req as { rawBody?: unknown }).rawBody;
    if (Buffer.isBuffer(read) && req.readableEnded)
      Object.defineProperty(req, 'pipe', {
        value: <T extends NodeJS.WritableStream>(upstream: T): T => {
          upstream.end(read);
          return upstream;
        },
      });
    void proxy(req, res, next);
  };

  const upgrade = (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const owner = ownerOf(new URL(req.url ?? '/', 'http://gateway').pathname);
    const target = owner ? opts.services[owner as keyof ServiceUrls] : undefined;
    if (!target) return void socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    forwarding.set(req, { target, done: false });
    const id = req.headers['x-request-id'];
    prepareHeaders(req, typeof id === 'string' ? id : crypto.randomUUID());
    proxy.upgrade(req, socket, head);
  };

  return { handler, upgrade };
}
