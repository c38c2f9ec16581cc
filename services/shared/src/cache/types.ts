/** Hot read cache (Redis in distributed mode, in-process in embedded mode). Values are strings (JSON). */
export interface Cache {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSeconds?: number): Promise<void>;
  del(...keys: string[]): Promise<void>;
  /** Throws when the cache's server cannot be reached (health checks); reads and writes never do. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Fan-out of messages between processes (Redis pub/sub) or within one (in-process). */
export interface PubSub {
  publish(channel: string, message: string): Promise<void>;
  /**
   * Resolves once the subscription is active; the returned function unsubscribes. `onGap` is called when
   * messages may have been lost (the connection to Redis dropped and came back): a subscriber keeping
   * copies should drop them all.
   */
  subscribe(
    channel: string,
    handler: (message: string) => void,
    options?: { onGap?: () => void },
  ): Promise<() => Promise<void>>;
  close(): Promise<void>;
}
