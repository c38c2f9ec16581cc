import type { Pool, PoolClient } from 'pg';
import { PostgresEventStore } from '../../eventstore/postgres-event-store.ts';
import type { RecordedEvent } from '../../eventstore/types.ts';
import { applyEvent, claimEvent, wants, type Applied } from '../apply-event.ts';
import {
  deliverEvent,
  reportDelivered,
  type DeliveryContext,
  type DeliveryMetrics,
  type DeliveryObserver,
  type DeliveryResult,
  type DeliveryReporting,
} from '../deliver-event.ts';
import { EventLogNotifications } from '../event-log-notifications.ts';
import { silentLogger, type BusLogger } from '../logger.ts';
import {
  abortableDelay,
  backoffDelay,
  errorText,
  isConnectionError,
  retryPolicy,
  type RetryPolicy,
} from '../retry-policy.ts';
import { schemaIdentifier } from '../schema-name.ts';
import { inTransaction } from '../transaction.ts';
import type { EventConsumer, Subscription } from '../types.ts';
import { Wakeup } from '../wakeup.ts';

export interface PostgresLogSubscriptionOptions {
  pool: Pool;
  consumer: EventConsumer;
  /**
   * The services' event stores in this process. A source's store is used to read its log (so its
   * upcasters apply) and its onAppended hook wakes the subscription without waiting for NOTIFY.
   */
  stores?: readonly PostgresEventStore[];
  /** Shared LISTEN connection; without one the subscription opens its own. */
  notifications?: EventLogNotifications;
  retry?: Partial<RetryPolicy>;
  /** Events read and applied per transaction (default 500). */
  batchSize?: number;
  /** Fallback poll when no notification arrives (default 2000 ms). */
  pollIntervalMs?: number;
  logger?: BusLogger;
  onDelivered?: DeliveryObserver;
  metrics?: DeliveryMetrics & { projectionLag?: ProjectionLagGauge };
}

/** Events in a source log past a consumer's checkpoint (prom-client's Gauge fits). */
export interface ProjectionLagGauge {
  set(labels: { consumer: string; source: string }, value: number): void;
}

/** Position in one source's log: the last event processed (commit-safe order of PostgresEventStore.readAll). */
interface Cursor {
  transactionId: bigint;
  globalPosition: bigint;
}

/** now: more to read at once; soon: committed events wait behind an older open transaction; idle: caught up. */
type Next = 'now' | 'soon' | 'idle';

/** Re-poll delays while events are held back: short at first, since the transaction ahead usually ends in ms. */
const HELD_BACK_FIRST_MS = 5;
const HELD_BACK_MAX_MS = 100;

/**
 * Feeds a consumer from the services' Postgres event logs (embedded mode), as Marten/Emmett async
 * projections do: per source a checkpoint in `<consumer.schema>.checkpoints`, advanced in the same
 * transaction as the consumer's writes. A poll's events are applied in one transaction; if that fails, they
 * are retried one by one so a poison event is parked (deliverEvent) without holding up the others.
 */
export class PostgresLogSubscription implements Subscription {
  readonly consumer: EventConsumer;
  private readonly pool: Pool;
  private readonly readers = new Map<string, PostgresEventStore>();
  private readonly stores: readonly PostgresEventStore[];
  private readonly retry: RetryPolicy;
  private readonly batchSize: number;
  private readonly pollIntervalMs: number;
  private readonly logger: BusLogger;
  private readonly reporting: DeliveryReporting;
  private readonly lagGauge: ProjectionLagGauge | undefined;
  private readonly notifications: EventLogNotifications;
  private readonly ownsNotifications: boolean;
  private readonly cursors = new Map<string, Cursor>();
  private readonly wakeup = new Wakeup();
  private unsubscribes: Array<() => void> = [];
  private abort: AbortController | undefined;
  private loop: Promise<void> | undefined;

  constructor(options: PostgresLogSubscriptionOptions) {
    this.consumer = options.consumer;
    this.pool = options.pool;
    schemaIdentifier(this.consumer.schema);
    if (this.consumer.sources.length === 0) throw new Error(`Consumer ${this.consumer.name} has no sources`);
    this.stores = options.stores ?? [];
    for (const source of this.consumer.sources) {
      this.readers.set(
        source,
        this.stores.find((s) => s.schema === source) ?? new PostgresEventStore(this.pool, schemaIdentifier(source)),
      );
    }
    this.retry = retryPolicy(options.retry);
    this.batchSize = options.batchSize ?? 500;
    this.pollIntervalMs = options.pollIntervalMs ?? 2_000;
    this.logger = options.logger ?? silentLogger;
    this.reporting = { logger: this.logger, onDelivered: options.onDelivered, metrics: options.metrics };
    this.lagGauge = options.metrics?.projectionLag;
    this.ownsNotifications = !options.notifications;
    this.notifications = options.notifications ?? new EventLogNotifications(this.pool, this.logger);
  }

  /** Loads the checkpoints and starts following the logs; resolves before catching up. */
  async start(): Promise<void> {
    if (this.loop) return;
    for (const source of this.consumer.sources) this.cursors.set(source, await this.loadCursor(source));
    await this.notifications.start();
    const wake = (): void => this.wakeup.notify();
    this.unsubscribes = [
      ...this.consumer.sources.map((source) => this.notifications.on(source, wake)),
      ...this.stores.filter((s) => this.consumer.sources.includes(s.schema)).map((s) => s.onAppended(wake)),
    ];
    this.abort = new AbortController();
    this.loop = this.run(this.abort.signal);
    this.logger.info(
      { consumer: this.consumer.name, sources: this.consumer.sources },
      'postgres-log subscription started',
    );
  }

  /** Stops after the transaction in flight; an event being retried is left for the next start. */
  async stop(): Promise<void> {
    if (!this.loop) return;
    this.abort?.abort(new Error('subscription stopped'));
    await this.loop;
    this.loop = undefined;
    for (const u of this.unsubscribes) u();
    this.unsubscribes = [];
    if (this.ownsNotifications) await this.notifications.stop();
    this.logger.info({ consumer: this.consumer.name }, 'postgres-log subscription stopped');
  }

  private async run(signal: AbortSignal): Promise<void> {
    let errors = 0;
    let heldBackDelay = 0;
    while (!signal.aborted) {
      let poll: { next: Next; progressed: boolean };
      try {
        poll = await this.pollAll(signal);
        errors = 0;
      } catch (err) {
        if (signal.aborted) break;
        errors += 1;
        const delay = backoffDelay(errors, { baseDelayMs: 100, maxDelayMs: this.pollIntervalMs });
        this.logger.warn(
          { consumer: this.consumer.name, err: errorText(err), retryInMs: delay },
          'postgres-log subscription poll failed',
        );
        await abortableDelay(delay, signal).catch(() => undefined);
        continue;
      }
      if (poll.next === 'now') continue;
      if (poll.next === 'idle') {
        heldBackDelay = 0;
        await this.wakeup.wait(this.pollIntervalMs, signal);
        continue;
      }
      heldBackDelay =
        poll.progressed || heldBackDelay === 0 ? HELD_BACK_FIRST_MS : Math.min(HELD_BACK_MAX_MS, heldBackDelay * 2);
      await this.wakeup.wait(heldBackDelay, signal);
    }
  }

  private async pollAll(signal: AbortSignal): Promise<{ next: Next; progressed: boolean }> {
    let next: Next = 'idle';
    let progressed = false;
    for (const source of this.consumer.sources) {
      const poll = await this.pollSource(source, signal);
      progressed ||= poll.progressed;
      if (poll.next === 'now' || (poll.next === 'soon' && next === 'idle')) next = poll.next;
    }
    return { next, progressed };
  }

  private async pollSource(source: string, signal: AbortSignal): Promise<{ next: Next; progressed: boolean }> {
    const events = await this.readers.get(source)!.readAll(this.cursorOf(source), this.batchSize);
    if (events.length > 0 && !(await this.processBatch(source, events, signal)))
      return { next: 'now', progressed: false };
    const progressed = events.length > 0;
    if (events.length === this.batchSize) return { next: 'now', progressed };
    const after = this.cursorOf(source);
    // Committed events past the cursor that readAll held back: they wait behind an older transaction.
    const { rows } = await this.pool.query<{ pending: boolean; head: bigint | null }>(
      `SELECT EXISTS (SELECT 1 FROM ${schemaIdentifier(source)}.events
                       WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)) AS pending,
              (SELECT max(global_position) FROM ${schemaIdentifier(source)}.events) AS head`,
      [after.transactionId.toString(), after.globalPosition.toString()],
    );
    const head = rows[0]?.head;
    // Positions are a per-schema sequence, so the distance is the lag in events (rolled-back gaps aside).
    if (this.lagGauge && head != null)
      this.lagGauge.set(
        { consumer: this.consumer.name, source },
        Math.max(0, Number(BigInt(head) - after.globalPosition)),
      );
    return { next: rows[0]?.pending ? 'soon' : 'idle', progressed };
  }

  /** A batch's events applied one at a time (`at` tells which one is being applied, for a failure). */
  private async applyInTurn(tx: PoolClient, events: RecordedEvent[], at: (i: number) => void): Promise<Applied[]> {
    const results: Applied[] = [];
    for (const [i, event] of events.entries()) {
      at(i);
      results.push(await applyEvent(tx, this.consumer, event));
    }
    return results;
  }

  /**
   * A batch's events claimed one by one, then the claimed ones handed to the consumer's handleBatch at once
   * (a read model loads and writes each of its tables once for the whole batch).
   */
  private async applyAtOnce(tx: PoolClient, events: RecordedEvent[]): Promise<Applied[]> {
    const results: Applied[] = [];
    const claimed: number[] = [];
    for (const [i, event] of events.entries()) {
      const outcome = await claimEvent(tx, this.consumer, event);
      results.push({ outcome: outcome === 'claimed' ? 'handled' : outcome });
      if (outcome === 'claimed') claimed.push(i);
    }
    if (claimed.length === 0) return results;
    const effects = await this.consumer.handleBatch!(
      claimed.map((i) => events[i]!),
      tx,
    );
    claimed.forEach((i, n) => {
      if (effects[n] !== undefined) results[i] = { outcome: 'handled', effect: effects[n] };
    });
    return results;
  }

  /** Applies a poll's events; returns false if another instance had moved the checkpoint (cursor reloaded). */
  private async processBatch(source: string, events: RecordedEvent[], signal: AbortSignal): Promise<boolean> {
    if (!events.some((e) => wants(this.consumer, e.type))) return this.skipBatch(source, events);
    let failedIndex: number | undefined;
    let failure: unknown;
    // Outcomes (and effects) of the batch's events, once its transaction committed.
    let outcomes: Applied[] | 'superseded' | undefined;
    try {
      outcomes = await inTransaction(this.pool, async (tx) => {
        if (!(await this.holdsCheckpoint(tx, source))) return 'superseded' as const;
        const results = this.consumer.handleBatch
          ? await this.applyAtOnce(tx, events)
          : await this.applyInTurn(tx, events, (i) => (failedIndex = i));
        failedIndex = undefined;
        await this.saveCheckpoint(tx, source, events[events.length - 1]!);
        return results;
      });
    } catch (err) {
      if (signal.aborted || isConnectionError(err)) throw err;
      failure = err;
      this.logger.debug(
        { consumer: this.consumer.name, source, size: events.length, err: errorText(err) },
        'batch failed; applying its events one by one',
      );
    }
    if (outcomes === 'superseded') {
      await this.reloadCursor(source);
      return false;
    }
    if (outcomes) {
      await this.advanced(
        source,
        events,
        outcomes.map((applied) => ({ ...applied, attempts: 1 })),
      );
      return true;
    }

    const ctx: DeliveryContext = {
      pool: this.pool,
      consumer: this.consumer,
      retry: this.retry,
      logger: this.logger,
      signal,
    };
    for (const [i, event] of events.entries()) {
      const result = await deliverEvent(ctx, event, {
        guard: (tx) => this.holdsCheckpoint(tx, source),
        complete: (tx) => this.saveCheckpoint(tx, source, event),
        priorFailure: i === failedIndex ? failure : undefined,
      });
      if (result.outcome === 'superseded') {
        await this.reloadCursor(source);
        return false;
      }
      await this.advanced(source, [event], [result]);
    }
    return true;
  }

  /**
   * A batch of events the consumer does not want (most of a sale's events, for most consumers): nothing to
   * apply, so no transaction. One conditional UPDATE moves the checkpoint if it is still where this instance
   * left it (else another instance moved it: reload, as holdsCheckpoint would).
   */
  private async skipBatch(source: string, events: RecordedEvent[]): Promise<boolean> {
    const mine = this.cursorOf(source);
    const last = events[events.length - 1]!;
    const moved = await this.pool.query(
      `UPDATE ${schemaIdentifier(this.consumer.schema)}.checkpoints
          SET transaction_id = $3::text::xid8, global_position = $4, updated_at = now()
        WHERE consumer = $1 AND source = $2 AND transaction_id = $5::text::xid8 AND global_position = $6`,
      [
        this.consumer.name,
        source,
        last.transactionId.toString(),
        last.globalPosition.toString(),
        mine.transactionId.toString(),
        mine.globalPosition.toString(),
      ],
    );
    if (moved.rowCount === 0) {
      await this.reloadCursor(source);
      return false;
    }
    await this.advanced(
      source,
      events,
      events.map(() => ({ outcome: 'ignored' as const, attempts: 1 })),
    );
    return true;
  }

  /** After a commit: moves the in-memory cursor, then the effects both adapters share (reportDelivered). */
  private async advanced(source: string, events: RecordedEvent[], results: DeliveryResult[]): Promise<void> {
    const last = events[events.length - 1]!;
    this.cursors.set(source, { transactionId: last.transactionId, globalPosition: last.globalPosition });
    await reportDelivered(
      this.consumer,
      events.map((event, i) => ({ event, ...results[i]! })),
      this.reporting,
    );
  }

  private cursorOf(source: string): Cursor {
    const c = this.cursors.get(source);
    if (!c) throw new Error(`No cursor for source ${source}`);
    return c;
  }

  private async loadCursor(source: string): Promise<Cursor> {
    const table = `${schemaIdentifier(this.consumer.schema)}.checkpoints`;
    await this.pool.query(`INSERT INTO ${table} (consumer, source) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [
      this.consumer.name,
      source,
    ]);
    const { rows } = await this.pool.query<{ transaction_id: bigint; global_position: bigint }>(
      `SELECT transaction_id, global_position FROM ${table} WHERE consumer = $1 AND source = $2`,
      [this.consumer.name, source],
    );
    const row = rows[0];
    if (!row) throw new Error(`Checkpoint of ${this.consumer.name}/${source} vanished`);
    return { transactionId: BigInt(row.transaction_id), globalPosition: BigInt(row.global_position) };
  }

  private async reloadCursor(source: string): Promise<void> {
    this.cursors.set(source, await this.loadCursor(source));
    this.logger.info(
      { consumer: this.consumer.name, source },
      'checkpoint moved by another instance; re-reading from it',
    );
  }

  /**
   * Locks this consumer's checkpoint row for the transaction and checks it is where this instance left it.
   * Two instances of one consumer thus never apply the same events concurrently.
   */
  private async holdsCheckpoint(tx: PoolClient, source: string): Promise<boolean> {
    const { rows } = await tx.query<{ transaction_id: bigint; global_position: bigint }>(
      `SELECT transaction_id, global_position FROM ${schemaIdentifier(this.consumer.schema)}.checkpoints
        WHERE consumer = $1 AND source = $2 FOR UPDATE`,
      [this.consumer.name, source],
    );
    const row = rows[0];
    const mine = this.cursorOf(source);
    return (
      !!row && BigInt(row.transaction_id) === mine.transactionId && BigInt(row.global_position) === mine.globalPosition
    );
  }

  private async saveCheckpoint(tx: PoolClient, source: string, event: RecordedEvent): Promise<void> {
    await tx.query(
      `UPDATE ${schemaIdentifier(this.consumer.schema)}.checkpoints
          SET transaction_id = $3::text::xid8, global_position = $4, updated_at = now()
        WHERE consumer = $1 AND source = $2`,
      [this.consumer.name, source, event.transactionId.toString(), event.globalPosition.toString()],
    );
  }
}
