import http, { type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { unavailableAnswer } from './unavailable-answer.ts';

/** Seconds a client is told to wait (Retry-After) before asking a starting process again. */
export const STARTING_RETRY_AFTER_SECONDS = 1;

/**
 * The answer of a process that is listening but not ready yet (migrations, seeding, consumers): 503
 * `{"message":"Starting"}` with Retry-After on every path, and on /api/health a status of `starting`, so a
 * request made in those seconds is answered at once instead of hanging.
 */
export function startingHandler(service: string): RequestListener {
  return unavailableAnswer(service, {
    status: 'starting',
    message: 'Starting',
    retryAfterSeconds: STARTING_RETRY_AFTER_SECONDS,
  });
}

export interface StartingServer {
  server: Server;
  port: number;
  /** Hands every request from now on to the app. */
  ready(app: RequestListener): void;
  /** Closes the listener (start-up failed). */
  close(): Promise<void>;
}

/**
 * Connections the kernel queues while the process accepts: a flash sale's crowd connects at once, and past
 * Node's default of 511 the kernel drops SYNs, so a buyer waits out TCP retransmits (1 s, 3 s, 7 s...) before
 * the shop even sees the request. Capped by net.core.somaxconn (4096 on current Linux).
 */
export const LISTEN_BACKLOG = 4096;

/**
 * Binds the port at once (PORT=0 picks a free one: the payment sandbox and its webhooks need the real port
 * before the app exists) and answers "Starting" until `ready(app)`.
 */
export async function listenWhileStarting(port: number, host: string, service: string): Promise<StartingServer> {
  let handler: RequestListener = startingHandler(service);
  const server = http.createServer((req, res) => handler(req, res));
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    ready(app) {
      handler = app;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
