import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { unavailableAnswer } from '../http/unavailable-answer.ts';
import type { Logger } from '../observability/logger.ts';

/** How long a stopping process lets requests in flight finish before it closes their connections. */
export const SHUTDOWN_GRACE_MS = 10_000;

/**
 * How long a process that received SIGTERM keeps listening (answering "Shutting down") even when nothing is
 * in flight: clients that connected just before the signal get that answer instead of a reset, and a load
 * balancer polling /api/health sees the 503 and stops sending.
 */
export const SHUTDOWN_LINGER_MS = 1000;

/**
 * The answer of a process that is shutting down: 503 `{"message":"Shutting down"}` with `Connection: close`
 * on every path (on /api/health a status of `shutting down`), so a client or load balancer goes elsewhere.
 */
export function shuttingDownHandler(service: string): RequestListener {
  return unavailableAnswer(service, { status: 'shutting down', message: 'Shutting down', closeConnection: true });
}

export interface RequestGate {
  /** True once drain() began. */
  readonly draining: boolean;
  /** Requests being answered now. */
  readonly inFlight: number;
  /**
   * Graceful stop of the HTTP side: from now on every new request (but those `passThrough` lets in) is
   * answered 503 "Shutting down" and its connection closed; `endStreams` ends long-lived responses (push
   * streams); requests in flight get up to `graceMs` to finish (and the listener stays open at least
   * `lingerMs`), then every connection is closed and the server stops listening. Resolves with how many
   * requests were cut at the bound.
   */
  drain(opts?: { graceMs?: number; lingerMs?: number; endStreams?: () => Promise<void> }): Promise<{ cut: number }>;
}

const isEventStream = (res: ServerResponse) =>
  String(res.getHeader('content-type') ?? '').startsWith('text/event-stream');

/**
 * Puts a gate in front of a server's request listeners (install it once, after the server exists and before
 * it shuts down): it counts requests in flight and, once draining, refuses new ones. `passThrough` names
 * requests still served while draining: the payment sandbox, which stands in for Razorpay's servers and
 * which a create-order in flight calls over HTTP.
 */
export function gateRequests(
  server: Server,
  opts: { service: string; passThrough?: (req: IncomingMessage) => boolean; logger?: Logger },
): RequestGate {
  const listeners = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  const refuse = shuttingDownHandler(opts.service);
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  let onIdle: (() => void) | undefined;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (draining && !opts.passThrough?.(req)) return refuse(req, res);
    inFlight.add(res);
    // Answered, then the connection closes: the client's next request goes to a process that stays.
    if (draining) res.shouldKeepAlive = false;
    res.once('close', () => {
      inFlight.delete(res);
      if (inFlight.size === 0) onIdle?.();
    });
    for (const l of listeners) l.call(server, req, res);
  });

  return {
    get draining() {
      return draining;
    },
    get inFlight() {
      return inFlight.size;
    },
    async drain({ graceMs = SHUTDOWN_GRACE_MS, lingerMs = 0, endStreams } = {}) {
      const began = Date.now();
      draining = true;
      for (const res of inFlight) if (!res.headersSent) res.shouldKeepAlive = false;
      // Idle keep-alive connections stay open until the end: closing one now races a request the client may be
      // sending on it (the client sees a reset). A request on one is told "Shutting down" and closes it.
      await endStreams?.().catch((err: unknown) => opts.logger?.warn({ err }, 'could not end push streams'));
      // Streams nobody else ends (the distributed gateway's proxied ones): end them here.
      for (const res of inFlight) if (isEventStream(res) && !res.writableEnded) res.end();
      let timer: NodeJS.Timeout | undefined;
      if (inFlight.size > 0)
        await new Promise<void>((resolve) => {
          onIdle = resolve;
          timer = setTimeout(resolve, graceMs);
        });
      clearTimeout(timer);
      onIdle = undefined;
      const linger = lingerMs - (Date.now() - began);
      if (linger > 0) await new Promise((resolve) => setTimeout(resolve, linger));
      const cut = inFlight.size;
      if (cut > 0) opts.logger?.warn({ cut, graceMs }, 'requests still in flight at the shutdown bound: closing them');
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      return { cut };
    },
  };
}
