import type { Request, RequestHandler } from 'express';

/**
 * Fixed-window rate limit per client address (per process). Answers 429 with a clear message.
 * Used on login and payment endpoints.
 */
export function rateLimit(opts: {
  windowMs: number;
  max: number;
  message?: string;
  now?: () => number;
  key?: (req: Request) => string;
}): RequestHandler {
  const now = opts.now ?? Date.now;
  const hits = new Map<string, { count: number; resetAt: number }>();
  return (req, res, next) => {
    const t = now();
    if (hits.size > 10_000) for (const [k, v] of hits) if (v.resetAt <= t) hits.delete(k);
    const key = opts.key?.(req) ?? req.ip ?? 'unknown';
    let h = hits.get(key);
    if (!h || h.resetAt <= t) {
      h = { count: 0, resetAt: t + opts.windowMs };
      hits.set(key, h);
    }
    h.count += 1;
    if (h.count > opts.max) {
      res.setHeader('Retry-After', String(Math.ceil((h.resetAt - t) / 1000)));
      res.status(429).json({ message: opts.message ?? 'Too many attempts, please try again later' });
      return;
    }
    next();
  };
}
