/**
 * Sends generated requests to a running shop, `concurrency` at a time, and counts the answers per route and
 * status. A 5xx, or a request with no complete answer within `timeoutMs` (a hang), is a failure; a failure
 * is reported with its seed and index, from which the same request is generated again.
 */
import http from 'node:http';
import type { FuzzRequest, RequestGenerator } from './request-generator.ts';

export interface FuzzOptions {
  baseUrl: string;
  /** Another base URL for some request targets (distributed: /internal/* at the owning service). */
  baseUrlFor?: (target: string) => string;
  generator: RequestGenerator;
  requests: number;
  /** First request index (default 0): a run covers [from, from + requests). */
  from?: number;
  concurrency?: number;
  /** No answer (headers and whole body, or a stream's headers) within this long is a hang. */
  timeoutMs?: number;
  /** Called every `progressEvery` requests with the count so far. */
  onProgress?: (done: number) => void;
  progressEvery?: number;
}

/** A status code, 'hang', or 'no-answer: <code>' (the connection ended without any answer). */
export type Outcome = number | 'hang' | `no-answer: ${string}`;

export interface Failure {
  request: FuzzRequest;
  outcome: Outcome;
  /** The start of the answer's body (5xx). */
  answer?: string;
}

export interface FuzzSummary {
  seed: number;
  requests: number;
  from: number;
  durationMs: number;
  byStatus: Record<string, number>;
  byRoute: Record<string, Record<string, number>>;
  /** 5xx answers and hangs (first `keep`). */
  failures: Failure[];
  failureCount: number;
  /** Connections ended with no answer at all (not counted as failures; reported). */
  noAnswer: number;
  slowestMs: number;
  /** The first answer's start per route and status (what the shop said), for looking into. */
  samples: Record<string, Record<string, string>>;
}

const isFailure = (o: Outcome) => o === 'hang' || (typeof o === 'number' && o >= 500);

/** Sends one request; resolves with the outcome (never rejects). */
export function sendOne(
  base: URL,
  agent: http.Agent,
  req: FuzzRequest,
  timeoutMs: number,
): Promise<{ outcome: Outcome; answer?: string }> {
  return new Promise((resolve) => {
    let settled = false;
    let status: number | undefined;
    const chunks: Buffer[] = [];
    let kept = 0;
    const done = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const answer = chunks.length ? Buffer.concat(chunks).toString('utf8').slice(0, 300) : undefined;
      resolve({ outcome, ...(answer !== undefined ? { answer } : {}) });
    };
    const timer = setTimeout(() => {
      done('hang');
      r.destroy();
    }, timeoutMs);
    let r: http.ClientRequest;
    try {
      r = http.request({
        host: base.hostname,
        port: base.port,
        method: req.method,
        path: req.target,
        headers: req.headers,
        agent,
      });
    } catch (err) {
      clearTimeout(timer);
      settled = true;
      resolve({ outcome: `no-answer: unsendable ${(err as Error).message}` });
      return;
    }
    r.on('response', (res) => {
      status = res.statusCode ?? 0;
      if (req.stream && status === 200) {
        // An event stream stays open: its headers are the answer.
        done(status);
        res.destroy();
        return;
      }
      res.on('data', (c: Buffer) => {
        if (kept < 300) {
          chunks.push(c);
          kept += c.length;
        }
      });
      res.on('end', () => done(status!));
      res.on('error', () => done(status!));
      res.on('aborted', () => done(status!));
    });
    r.on('error', (err: NodeJS.ErrnoException) => {
      // After the answer's headers a reset only cuts the body short; before them there was no answer.
      done(status ?? `no-answer: ${err.code ?? err.message}`);
    });
    if (req.body !== undefined) r.end(req.body);
    else r.end();
  });
}

export async function runFuzz(opts: FuzzOptions): Promise<FuzzSummary> {
  const base = new URL(opts.baseUrl);
  const bases = new Map<string, URL>();
  const baseOf = (target: string) => {
    const url = opts.baseUrlFor?.(target) ?? opts.baseUrl;
    if (url === opts.baseUrl) return base;
    let b = bases.get(url);
    if (!b) bases.set(url, (b = new URL(url)));
    return b;
  };
  const concurrency = opts.concurrency ?? 16;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const from = opts.from ?? 0;
  const keep = 20;
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const summary: FuzzSummary = {
    seed: opts.generator.seed,
    requests: 0,
    from,
    durationMs: 0,
    byStatus: {},
    byRoute: {},
    failures: [],
    failureCount: 0,
    noAnswer: 0,
    slowestMs: 0,
    samples: {},
  };
  const started = performance.now();
  let next = from;
  const end = from + opts.requests;
  const worker = async () => {
    while (next < end) {
      const index = next++;
      const req = opts.generator.generate(index);
      const t0 = performance.now();
      const { outcome, answer } = await sendOne(baseOf(req.target), agent, req, timeoutMs);
      summary.slowestMs = Math.max(summary.slowestMs, performance.now() - t0);
      const key = String(outcome).startsWith('no-answer') ? 'no-answer' : String(outcome);
      summary.requests += 1;
      summary.byStatus[key] = (summary.byStatus[key] ?? 0) + 1;
      const perRoute = (summary.byRoute[req.route] ??= {});
      perRoute[key] = (perRoute[key] ?? 0) + 1;
      if (key === 'no-answer') summary.noAnswer += 1;
      const samples = (summary.samples[req.route] ??= {});
      if (samples[key] === undefined) samples[key] = answer ?? '';
      if (isFailure(outcome)) {
        summary.failureCount += 1;
        if (summary.failures.length < keep)
          summary.failures.push({ request: req, outcome, ...(answer ? { answer } : {}) });
      }
      if (opts.onProgress && summary.requests % (opts.progressEvery ?? 1000) === 0) opts.onProgress(summary.requests);
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    agent.destroy();
  }
  summary.failures.sort((a, b) => a.request.index - b.request.index);
  summary.durationMs = performance.now() - started;
  return summary;
}

/** One request as text: how to see it again. */
export function describeRequest(req: FuzzRequest, seed: number): string {
  const body =
    req.body === undefined
      ? 'no body'
      : `${req.body.length} bytes: ${JSON.stringify(req.body.subarray(0, 160).toString('latin1'))}`;
  return [
    `#${req.index} (seed ${seed}) ${req.route}: ${req.method} ${req.target.slice(0, 200)}`,
    `  varied: ${req.variant.join('; ')}`,
    `  headers: ${JSON.stringify(req.headers).slice(0, 300)}`,
    `  body: ${body}`,
    `  again: npm run fuzz -- --seed ${seed} --index ${req.index}`,
  ].join('\n');
}

/** The summary as printed by `npm run fuzz` and the test. */
export function formatSummary(s: FuzzSummary): string {
  const statuses = Object.entries(s.byStatus)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, n]) => `${k}: ${n}`)
    .join(', ');
  const routes = Object.entries(s.byRoute)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([route, counts]) => {
      const total = Object.values(counts).reduce((x, y) => x + y, 0);
      const parts = Object.entries(counts)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, n]) => `${k}:${n}`)
        .join(' ');
      return `  ${route.padEnd(48)} ${String(total).padStart(6)}  ${parts}`;
    });
  const lines = [
    `fuzz: seed ${s.seed}, requests ${s.from}..${s.from + s.requests - 1} (${s.requests}) in ${(s.durationMs / 1000).toFixed(1)} s (${Math.round((s.requests / s.durationMs) * 1000)}/s), slowest answer ${Math.round(s.slowestMs)} ms`,
    `statuses: ${statuses}`,
    `per route (requests, statuses):`,
    ...routes,
    s.failureCount === 0
      ? 'no 5xx answers, no hangs'
      : `FAILED: ${s.failureCount} requests answered 5xx or hung; the first ${s.failures.length}:`,
    ...s.failures.map(
      (f) =>
        `${describeRequest(f.request, s.seed)}\n  outcome: ${f.outcome}${f.answer ? ` ${JSON.stringify(f.answer)}` : ''}`,
    ),
  ];
  return lines.join('\n');
}
