import type { ChildProcess } from 'node:child_process';
import { waitUntil } from '@shop/test-support/wait-until';
import { expect } from 'vitest';

/** What the shutdown tests share: an SSE reader, a request that reports how it ended, a stop probe. */

export interface SseStream {
  /** Event names received, in order. */
  events: string[];
  /** Resolves when the body ends: 'ended' (clean end of the chunked body) or 'error: ...' (cut). */
  finished: Promise<string>;
}

/** Opens a push stream with fetch and collects its event names until the body ends. */
export async function openSse(url: string): Promise<SseStream> {
  const r = await fetch(url, { headers: { accept: 'text/event-stream' } });
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const events: string[] = [];
  const reader = r.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  const finished = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return 'ended';
        buffered += decoder.decode(value, { stream: true });
        let i: number;
        while ((i = buffered.indexOf('\n\n')) >= 0) {
          const frame = buffered.slice(0, i);
          buffered = buffered.slice(i + 2);
          const name = /^event: (.*)$/m.exec(frame)?.[1];
          if (name) events.push(name);
        }
      }
    } catch (err) {
      return `error: ${(err as Error).message} ${String((err as Error).cause ?? '')}`;
    }
  })();
  return { events, finished };
}

/** How one request ended: its status and body, or how it failed (never undefined: every request ends). */
export interface Outcome {
  status: number | 'refused' | 'reset' | 'cut' | 'timeout';
  body?: unknown;
  connection?: string | null;
  retryAfter?: string | null;
  /** ms after the start of the test's clock */
  at: number;
  error?: string;
}

/**
 * One request with a client timeout; 'refused' when the connection was refused (nobody listening), 'reset'
 * when it was reset, 'cut' when it failed otherwise without an answer, 'timeout' when no answer came in
 * `timeoutMs`.
 */
export async function attempt(
  url: string,
  init: RequestInit & { timeoutMs?: number } = {},
  clock: () => number = () => performance.now(),
): Promise<Outcome> {
  try {
    const r = await fetch(url, { ...init, signal: AbortSignal.timeout(init.timeoutMs ?? 30_000) });
    const text = await r.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: kept as text, and the test says so
    }
    return {
      status: r.status,
      body,
      connection: r.headers.get('connection'),
      retryAfter: r.headers.get('retry-after'),
      at: clock(),
    };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    if (e.name === 'TimeoutError') return { status: 'timeout', at: clock(), error: e.message };
    const code = e.cause?.code;
    return {
      status: code === 'ECONNREFUSED' ? 'refused' : code === 'ECONNRESET' ? 'reset' : 'cut',
      at: clock(),
      error: `${e.message} ${code ?? ''} ${e.cause?.message ?? ''}`,
    };
  }
}

/** Resolves with the exit code (or signal) of a child, once it exits. */
export function exitOf(child: ChildProcess): Promise<number | string> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode ?? child.signalCode!);
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
}

/**
 * Polls `url` on fresh connections until `exited` settles and sorts what it saw: refused connections, 503
 * "Shutting down", and anything else. A connection still in the kernel's accept queue when the process stops
 * listening is reset by the kernel (Linux has no way to stop accepting and keep the queue): those count as
 * refused, and are counted apart (`resetAtClose`). Signals arrive asynchronously: 200s before the first sign
 * of the stop are counted apart too (`beforeStop`); a 200 after it is an `other`.
 */
export async function probeWhileStopping(
  url: string,
  exited: Promise<unknown>,
): Promise<{ beforeStop: number; refused: number; resetAtClose: number; shuttingDown: Outcome[]; other: Outcome[] }> {
  let done = false;
  void exited.then(() => (done = true));
  const seen = { beforeStop: 0, refused: 0, resetAtClose: 0, shuttingDown: [] as Outcome[], other: [] as Outcome[] };
  await waitUntil(
    async () => {
      if (done) return true;
      // A new connection each time: a kept-alive one would not show whether new connections are taken.
      const o = await attempt(url, { headers: { connection: 'close' }, timeoutMs: 5000 });
      const stopping = seen.refused + seen.resetAtClose + seen.shuttingDown.length > 0;
      if (o.status === 200 && !stopping) seen.beforeStop++;
      else if (o.status === 'refused') seen.refused++;
      else if (o.status === 'reset') seen.resetAtClose++;
      else if (o.status === 503 && (o.body as { message?: string } | undefined)?.message === 'Shutting down')
        seen.shuttingDown.push(o);
      else if (!(done && o.status === 'cut')) seen.other.push(o); // a probe the exit itself cut is no answer
      return done;
    },
    `the process at ${url} to exit while probed`,
    60_000,
  );
  return seen;
}
