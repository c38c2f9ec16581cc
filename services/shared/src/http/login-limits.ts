import type { Request, RequestHandler } from 'express';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { RateLimitStore, refuse, retryAfterSeconds, storeOf } from './rate-limit.ts';

export interface LoginLimitTerms {
  /** Failed log-ins one account (e-mail) may have in the window, from any addresses. */
  perAccount: number;
  /** Failed log-ins one client address may have in the window, on any accounts. */
  perAddress: number;
  windowSeconds: number;
}

/** 5 failures per account and 20 per address in 15 minutes. */
export const LOGIN_LIMITS: LoginLimitTerms = { perAccount: 5, perAddress: 20, windowSeconds: 15 * 60 };

const minutes = (refusal: RateLimiterRes) => {
  const m = Math.ceil(retryAfterSeconds(refusal) / 60);
  return m === 1 ? 'a minute' : `${m} minutes`;
};

/** The e-mail a log-in is for, as accounts are found by it (trimmed, lower case); null when there is none. */
function accountOf(req: Request): string | null {
  const email = (req.body as { email?: unknown } | undefined)?.email;
  if (typeof email !== 'string') return null;
  const normalised = email.trim().toLowerCase();
  return normalised ? normalised : null;
}

/**
 * Slows password guessing on POST /api/auth/login: failed log-ins are counted per account (whatever the
 * address: a guesser spreading over many addresses) and per client address (whatever the account: one
 * address trying many accounts), in the app's RateLimitStore (shared through Redis). Past either budget the
 * answer is 429 with Retry-After and a message naming which was used up; the password is not checked.
 *
 * Each attempt takes its points before the password is checked, so parallel guesses cannot slip past the
 * budget; once answered, a successful log-in clears its account's count and gives the address its point
 * back, and an attempt that was no guess (a 400 for a malformed body, a 5xx) gives both back. Only
 * "Invalid email or password" (401) keeps its points.
 */
export function loginLimits(terms: LoginLimitTerms = LOGIN_LIMITS, store?: RateLimitStore): RequestHandler {
  let own: RateLimitStore | undefined;
  const ownStore = () => (own ??= new RateLimitStore());
  return async (req, res, next) => {
    const limits = store ?? storeOf(req, ownStore);
    const byAddress = limits.limiter('login-failures-address', terms.perAddress, terms.windowSeconds);
    const byAccount = limits.limiter('login-failures-account', terms.perAccount, terms.windowSeconds);
    const address = req.ip ?? 'unknown';
    const account = accountOf(req);
    const giveBack = (what: Promise<unknown>) =>
      void what.catch((err: unknown) => req.log.warn({ err }, 'could not give a log-in attempt back'));
    try {
      await byAddress.consume(address);
    } catch (err) {
      if (err instanceof RateLimiterRes)
        return refuse(
          res,
          err,
          `Too many failed login attempts from this address, please try again in ${minutes(err)}`,
        );
      req.log.error({ err }, 'login limit could not count; letting the attempt through');
    }
    if (account) {
      try {
        await byAccount.consume(account);
      } catch (err) {
        giveBack(byAddress.reward(address));
        if (err instanceof RateLimiterRes)
          return refuse(
            res,
            err,
            `Too many failed login attempts for this account, please try again in ${minutes(err)}`,
          );
        req.log.error({ err }, 'login limit could not count; letting the attempt through');
      }
    }
    res.once('finish', () => {
      if (res.statusCode === 401) return;
      giveBack(byAddress.reward(address));
      if (account) giveBack(res.statusCode < 300 ? byAccount.delete(account) : byAccount.reward(account));
    });
    next();
  };
}
