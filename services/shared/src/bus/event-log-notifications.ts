import type { Notification, Pool, PoolClient } from 'pg';
import { silentLogger, type BusLogger } from './logger.ts';
import { backoffDelay, errorText } from './retry-policy.ts';

/** NOTIFY channel of migrations/002_event_notify.sql; the payload is the schema that appended events. */
export const EVENTS_CHANNEL = 'shop_events';

/** `from`: the server process of the session that committed (absent after a reconnect: anything may have). */
type Listener = (from?: number) => void;

/**
 * One LISTEN connection per process that tells subscriptions and relays when a schema committed events.
 * A lost connection is re-established with backoff; after that every listener is woken once, because
 * notifications sent while it was down are gone.
 */
export class EventLogNotifications {
  private readonly listeners = new Map<string, Set<Listener>>();
  private client: PoolClient | undefined;
  private starting: Promise<void> | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private reconnectFailures = 0;
  private stopped = false;

  constructor(
    private readonly pool: Pool,
    private readonly logger: BusLogger = silentLogger,
  ) {}

  /** Calls `listener` after each commit that appended events to `schema`. Returns the unsubscribe function. */
  on(schema: string, listener: Listener): () => void {
    let set = this.listeners.get(schema);
    if (!set) this.listeners.set(schema, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Connects and LISTENs (idempotent: later calls share the first connection). */
  async start(): Promise<void> {
    this.stopped = false;
    this.starting ??= this.connect().catch((err: unknown) => {
      this.starting = undefined;
      throw err;
    });
    await this.starting;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    this.starting = undefined;
    const client = this.client;
    this.client = undefined;
    // Destroy rather than pool the connection: it is still LISTENing.
    client?.release(true);
  }

  private async connect(): Promise<void> {
    const client = await this.pool.connect();
    client.on('notification', (msg: Notification) => {
      if (msg.channel === EVENTS_CHANNEL && msg.payload) this.emit(msg.payload, msg.processId);
    });
    client.on('error', (err: Error) => this.lost(client, err));
    try {
      await client.query(`LISTEN ${EVENTS_CHANNEL}`);
    } catch (err) {
      client.release(true);
      throw err;
    }
    if (this.stopped) {
      client.release(true);
      return;
    }
    this.client = client;
  }

  private emit(schema: string, from?: number): void {
    for (const l of this.listeners.get(schema) ?? []) l(from);
  }

  private lost(client: PoolClient, err: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.starting = undefined;
    client.release(err);
    this.logger.warn(
      { err: errorText(err), channel: EVENTS_CHANNEL },
      'lost the LISTEN connection; reconnecting (polling covers the gap)',
    );
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    const delay = backoffDelay(this.reconnectFailures + 1, { baseDelayMs: 100, maxDelayMs: 10_000 });
    this.reconnectTimer = setTimeout(() => {
      this.start().then(
        () => {
          this.reconnectFailures = 0;
          for (const schema of this.listeners.keys()) this.emit(schema);
        },
        (err: unknown) => {
          this.reconnectFailures += 1;
          this.logger.warn({ err: errorText(err) }, 'LISTEN reconnect failed');
          this.scheduleReconnect();
        },
      );
    }, delay);
    this.reconnectTimer.unref();
  }
}
