import type { Request, RequestHandler } from 'express';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { loginAccountOf, type KnownDevices } from '@shop/shared/auth/known-devices';
import { RateLimitStore, refuse, retryAfterSeconds, storeOf } from '@shop/shared/http/rate-limit';

/** A budget of failed log-ins: `failures` in a fixed window of `windowSeconds`. */
export interface FailureBudget {
  failures: number;
  windowSeconds: number;
}

export interface LoginLimitTerms {
  /** Failed log-ins on one account from one client address: the guesser, not the owner elsewhere. */
  perAccountAndAddress: FailureBudget;
  /** Failed log-ins from one client address, on any accounts. */
  perAddress: FailureBudget;
  /**
   * Failed log-ins on one account from any addresses (a guesser spread over many): each budget used up
   * locks the account until its window ends, a short one first, then a longer one. A browser that
   * logged in to the account before (KnownDevices) is exempt.
   */
  perAccount: readonly FailureBudget[];
}

/**
 * 5 failures per account and address and 20 per address in 15 minutes; account-wide, 10 in 5 minutes,
 * then 50 in an hour.
 */
export const LOGIN_LIMITS: LoginLimitTerms = {
  perAccountAndAddress: { failures: 5, windowSeconds: 15 * 60 },
  perAddress: { failures: 20, windowSeconds: 15 * 60 },
  perAccount: [
    { failures: 10, windowSeconds: 5 * 60 },
    { failures: 50, windowSeconds: 60 * 60 },
  ],
};

const minutes = (refusal: RateLimiterRes) => {
  const m = Math.ceil(retryAfterSeconds(refusal) / 60);
  return m === 1 ? 'a minute' : `${m} minutes`;
};

/** The account a log-in is for (trimmed, lower case); null when there is none. */
function accountOf(req: Request): string | null {
  const email = (req.body as { email?: unknown } | undefined)?.email;
  if (typeof email !== 'string') return null;
  const account = loginAccountOf(email);
  return account ? account : null;
}

/** One budget's limiter and key for this attempt, and the refusal message when it is used up. */
interface Count {
  limiter: RateLimiterAbstract;
  key: string;
  refusal: (r: RateLimiterRes) => string;
  /** A known device of the account may go past it. */
  exemptForKnownDevice?: boolean;
}

/**
 * Slows password guessing on POST /api/auth/login without handing the guesser the owner's account: failed
 * log-ins are counted per (account, client address), per client address (whatever the account), and per
 * account from any address on a slower curve, all in the app's RateLimitStore (shared through Redis). Past
 * a budget the answer is 429 with Retry-After and a message naming it; the password is not checked. The
 * account-wide lock does not apply to a browser that logged in to that account before (`devices`), so the
 * owner keeps logging in from their own devices while guessers are refused.
 *
 * Each attempt takes its points before the password is checked, so parallel guesses cannot slip past a
 * budget; once answered, a successful log-in clears its (account, address) count and gives the other
 * counts their point back, and an attempt that was no guess (a 400 for a malformed body, a 5xx) gives
 * every point back. Only "Invalid email or password" (401) keeps its points.
 */
export function loginLimits(
  opts: { terms?: LoginLimitTerms; devices?: KnownDevices; store?: RateLimitStore } = {},
): RequestHandler {
  const terms = opts.terms ?? LOGIN_LIMITS;
  let own: RateLimitStore | undefined;
  const ownStore = () => (own ??= new RateLimitStore());
  return async (req, res, next) => {
    const limits = opts.store ?? storeOf(req, ownStore);
    const budget = (name: string, b: FailureBudget) => limits.limiter(name, b.failures, b.windowSeconds);
    const address = req.ip ?? 'unknown';
    const account = accountOf(req);
    const counts: Count[] = [
      {
        limiter: budget('login-failures-address', terms.perAddress),
        key: address,
        refusal: (r) => `Too many failed login attempts from this address, please try again in ${minutes(r)}`,
      },
    ];
    const pair: Count | undefined = account
      ? {
          limiter: budget('login-failures-account-address', terms.perAccountAndAddress),
          key: `${account} ${address}`,
          refusal: (r) =>
            `Too many failed login attempts for this account from this address, please try again in ${minutes(r)}`,
        }
      : undefined;
    if (account && pair) {
      counts.push(pair);
      terms.perAccount.forEach((b, i) =>
        counts.push({
          limiter: budget(`login-failures-account-${i + 1}`, b),
          key: account,
          refusal: (r) => `Too many failed login attempts for this account, please try again in ${minutes(r)}`,
          exemptForKnownDevice: true,
        }),
      );
    }
    const knownDevice = account !== null && opts.devices?.knows(req, account) === true;
    const giveBack = (taken: Count[]) => {
      for (const c of taken)
        c.limiter.reward(c.key).catch((err: unknown) => req.log.warn({ err }, 'could not give a log-in attempt back'));
    };

    const taken: Count[] = [];
    for (const count of counts) {
      try {
        await count.limiter.consume(count.key);
        taken.push(count);
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) {
          req.log.error({ err }, 'login limit could not count; letting the attempt through');
          continue;
        }
        // Used up, yet counted: the point comes back with the others whatever happens next.
        taken.push(count);
        if (count.exemptForKnownDevice && knownDevice) continue;
        giveBack(taken);
        return refuse(res, err, count.refusal(err));
      }
    }
    res.once('finish', () => {
      if (res.statusCode === 401) return;
      const ok = res.statusCode < 300;
      // A success clears this address's count on the account; the account-wide counts only get this
      // attempt back: the owner logging in does not reset what guessers elsewhere have used up.
      if (ok && pair) {
        pair.limiter.delete(pair.key).catch((err: unknown) => req.log.warn({ err }, 'could not clear a log-in count'));
      }
      giveBack(taken.filter((c) => !(ok && c === pair)));
    });
    next();
  };
}
