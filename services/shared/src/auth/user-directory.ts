/** What a token is checked against: the user as the accounts service has them now. */
export interface DirectoryUser {
  /** An admin now (not when the token was signed). */
  isAdmin: boolean;
  /** The session generation a token must carry (0 when the directory does not say: an older accounts service). */
  sessionVersion?: number;
}

/** Whether a token's user still exists, whether it is an admin now, and which sessions of theirs are live. */
export interface UserDirectory {
  /**
   * `atLeastSessionVersion`: the generation the token carries; a directory that remembers an older one for the
   * user looks again (the user reset their password since), so a fresh session works at once.
   */
  find(userId: string, atLeastSessionVersion?: number): Promise<DirectoryUser | null>;
}

/**
 * A process's user check (TokenService.authenticate): the accounts service's directory of users, bound by
 * whoever composes the process (the accounts module where it runs in this process; the accounts service
 * over HTTP elsewhere). Until bound, every check fails (503): a token is never trusted unchecked. Found users
 * are remembered for `ttlMs` (default 5 s), so a busy shopper costs one look-up per process every few
 * seconds; concurrent misses for one user share a look-up. A user who is gone is never remembered: their
 * tokens stop working within `ttlMs`.
 */
export class BoundUserDirectory implements UserDirectory {
  private source: UserDirectory | undefined;
  private readonly known = new Map<string, { user: DirectoryUser; until: number }>();
  private readonly inFlight = new Map<string, Promise<DirectoryUser | null>>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(opts: { ttlMs?: number; maxEntries?: number; now?: () => number } = {}) {
    this.ttlMs = opts.ttlMs ?? 5_000;
    this.maxEntries = opts.maxEntries ?? 50_000;
    this.now = opts.now ?? Date.now;
  }

  /** Where users are looked up from now on (what was remembered from another source is forgotten). */
  bind(source: UserDirectory): void {
    this.source = source;
    this.known.clear();
  }

  /** Drops what is remembered of a user (their password was reset here: old sessions end at once in this process). */
  forget(userId: string): void {
    this.known.delete(userId);
  }

  async find(userId: string, atLeastSessionVersion = 0): Promise<DirectoryUser | null> {
    const hit = this.known.get(userId);
    if (hit && hit.until > this.now() && (hit.user.sessionVersion ?? 0) >= atLeastSessionVersion) return hit.user;
    let pending = this.inFlight.get(userId);
    if (!pending) {
      pending = this.lookup(userId).finally(() => this.inFlight.delete(userId));
      this.inFlight.set(userId, pending);
    }
    return pending;
  }

  private async lookup(userId: string): Promise<DirectoryUser | null> {
    if (!this.source) throw new Error('No user directory is bound in this process (the accounts module or its client)');
    const found = await this.source.find(userId);
    this.known.delete(userId);
    if (!found) return null;
    if (this.known.size >= this.maxEntries) {
      // Maps iterate in insertion order: drop the oldest entry.
      const oldest = this.known.keys().next().value;
      if (oldest !== undefined) this.known.delete(oldest);
    }
    const user: DirectoryUser = {
      isAdmin: found.isAdmin,
      ...(found.sessionVersion !== undefined ? { sessionVersion: found.sessionVersion } : {}),
    };
    this.known.set(userId, { user, until: this.now() + this.ttlMs });
    return user;
  }
}
