import type { PubSub } from './types.ts';

/**
 * An in-memory copy of read-model rows a hot command path needs (pricing facts, delivery settings), so it
 * reads no Postgres per request. Loaded on first use; the projection that writes the rows calls `changed`
 * after each commit that touches them, which drops them in every process (pub/sub). `maxAgeMs` is the
 * backstop for a lost message: no copy is older.
 */
export class ProjectedViewCache<V> {
  private readonly entries = new Map<string, { value: V; at: number }>();
  private readonly loading = new Map<string, Promise<V>>();
  /** Bumped by every change: a load that raced with one is not kept. */
  private generation = 0;
  private unsubscribe?: () => Promise<void>;

  constructor(
    private readonly opts: {
      /** The pub/sub channel its changes go out on (one per view). */
      channel: string;
      pubsub: PubSub;
      load: (key: string) => Promise<V>;
      maxAgeMs?: number;
    },
  ) {}

  async start(): Promise<void> {
    this.unsubscribe = await this.opts.pubsub.subscribe(
      this.opts.channel,
      (message) => this.drop(JSON.parse(message) as string[]),
      // changes may have gone unheard (Redis was unreachable): drop every copy
      { onGap: () => this.drop([...this.entries.keys(), ...this.loading.keys()]) },
    );
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
  }

  get(key: string): Promise<V> {
    const hit = this.entries.get(key);
    if (hit && performance.now() - hit.at < (this.opts.maxAgeMs ?? 5_000)) return Promise.resolve(hit.value);
    let pending = this.loading.get(key);
    if (!pending) {
      const gen = this.generation;
      const at = performance.now();
      pending = this.opts
        .load(key)
        .then((value) => {
          if (gen === this.generation) this.entries.set(key, { value, at });
          return value;
        })
        .finally(() => this.loading.delete(key));
      this.loading.set(key, pending);
    }
    return pending;
  }

  /** The rows behind these keys changed (called after the projection's commit): every process drops them. */
  async changed(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    this.drop(keys);
    await this.opts.pubsub.publish(this.opts.channel, JSON.stringify(keys));
  }

  private drop(keys: string[]): void {
    this.generation += 1;
    for (const k of keys) {
      this.entries.delete(k);
      // a load under way may have read the old row: the next get starts a new one
      this.loading.delete(k);
    }
  }
}
