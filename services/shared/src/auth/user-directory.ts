import type pg from 'pg';

/** Whether a token's user still exists, and whether it is an admin now (not when the token was signed). */
export interface UserDirectory {
  find(userId: string): Promise<{ isAdmin: boolean } | null>;
}

/**
 * Users as the accounts service's projection (`accounts.users`) has them, read through the process's own
 * pool: every process of the shop shares one Postgres server, so any service can check a token without
 * calling the accounts service. Found users are remembered for `ttlMs` (default 5 s), so a busy shopper
 * costs one primary-key lookup per process every few seconds; concurrent misses for one user share a
 * query. A user who is gone is never remembered: their tokens stop working within `ttlMs`.
 */
export class AccountsUserDirectory implements UserDirectory {
  private readonly known = new Map<string, { isAdmin: boolean; until: number }>();
  private readonly inFlight = new Map<string, Promise<{ isAdmin: boolean } | null>>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(
    private readonly pool: pg.Pool,
    opts: { ttlMs?: number; maxEntries?: number; now?: () => number } = {},
  ) {
    this.ttlMs = opts.ttlMs ?? 5_000;
    this.maxEntries = opts.maxEntries ?? 50_000;
    this.now = opts.now ?? Date.now;
  }

  async find(userId: string): Promise<{ isAdmin: boolean } | null> {
    const hit = this.known.get(userId);
    if (hit && hit.until > this.now()) return { isAdmin: hit.isAdmin };
    let pending = this.inFlight.get(userId);
    if (!pending) {
      pending = this.lookup(userId).finally(() => this.inFlight.delete(userId));
      this.inFlight.set(userId, pending);
    }
    return pending;
  }

  private async lookup(userId: string): Promise<{ isAdmin: boolean } | null> {
    const { rows } = await this.pool.query<{ is_admin: boolean }>('SELECT is_admin FROM accounts.users WHERE id = $1', [
      userId,
    ]);
    const row = rows[0];
    this.known.delete(userId);
    if (!row) return null;
    if (this.known.size >= this.maxEntries) {
      // Maps iterate in insertion order: drop the oldest entry.
      const oldest = this.known.keys().next().value;
      if (oldest !== undefined) this.known.delete(oldest);
    }
    this.known.set(userId, { isAdmin: row.is_admin, until: this.now() + this.ttlMs });
    return { isAdmin: row.is_admin };
  }
}
