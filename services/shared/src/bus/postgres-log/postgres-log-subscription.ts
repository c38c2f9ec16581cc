import type { Pool, PoolClient } from 'pg';
import { PostgresEventStore } from '../../eventstore/postgres-event-store.ts';
import type { RecordedEvent } from '../../eventstore/types.ts';
import { claimEvents, wants, type Applied } from '../apply-event.ts';
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
import { isBackendOf } from '../../db/pool.ts';
import { schemaIdentifier } from '../schema-name.ts';
import { inTransaction } from '../transaction.ts';
import type { EventConsumer, Subscription } from '../types.ts';
import { Wakeup } from '../wakeup.ts';
import { CheckpointMoves } from './checkpoint-moves.ts';
import { SourceLogReader, SourceLogReaders, type LogCursor } from './source-log-reader.ts';

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
  /**
   * The process's source log readers, shared by its subscriptions: consumers woken together read a source
   * once (without them, this subscription reads on its own).
   */
  readers?: SourceLogReaders;
  /** The process's checkpoint moves past unwanted events, made together (for subscriptions on the same pool). */
  checkpointMoves?: CheckpointMoves;
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

type Cursor = LogCursor;

/** now: more to read at once; soon: committed events wait behind an older open transaction; idle: caught up. */
type Next = 'now' | 'soon' | 'idle';

/** Re-poll delays while events are held back: short at first, since the transaction ahead usually ends in ms. */
const HELD_BACK_FIRST_MS = 5;
const HELD_BACK_MAX_MS = 100;
/** In-process appends of types the consumer does not want move its checkpoint this long after, together. */
const UNWANTED_WAKE_MS = 1_000;

const isAfter = (a: Cursor, b: Cursor): boolean =>
  a.transactionId > b.transactionId || (a.transactionId === b.transactionId && a.globalPosition > b.globalPosition);
const positionOf = (e: RecordedEvent): Cursor => ({ transactionId: e.transactionId, globalPosition: e.globalPosition });

/**
 * Feeds a consumer from the services' Postgres event logs (embedded mode), as Marten/Emmett async
 * projections do: per source a checkpoint in `<consumer.schema>.checkpoints`, advanced in the same
 * transaction as the consumer's writes. A poll's events are applied in one transaction; if that fails, they
 * are retried one by one so a poison event is parked (deliverEvent) without holding up the others.
 */
export class PostgresLogSubscription implements Subscription {
  readonly consumer: EventConsumer;
  private readonly pool: Pool;
  private readonly readers = new Map<string, SourceLogReader>();
  private readonly checkpointMoves: CheckpointMoves;
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
  /**
   * What this process appended to each source, as its stores told (onAppended): the last event, and the last
   * one the consumer wants. A poll that reached them needs no query to know it is done.
   */
  private readonly appended = new Map<string, { any: Cursor; wanted?: Cursor }>();
  /** Sources with commits of unknown extent (another process's, or since start): the next poll asks Postgres. */
  private readonly unknown = new Set<string>();
  /** When each source's log was last asked for events held back (and its head, for the lag gauge). */
  private readonly checkedAt = new Map<string, number>();
  private readonly heads = new Map<string, bigint>();
  private unwantedTimer: NodeJS.Timeout | undefined;
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
    const readers = options.readers ?? new SourceLogReaders();
    this.checkpointMoves = options.checkpointMoves ?? new CheckpointMoves(this.pool);
    for (const source of this.consumer.sources) {
      const store =
        this.stores.find((s) => s.schema === source) ?? new PostgresEventStore(this.pool, schemaIdentifier(source));
      this.readers.set(source, readers.of(store, this.pool));
    }
    this.retry = retryPolicy(options.retry);
    this.batchSize = options.batchSize ?? 500;
    this.pollIntervalMs = options.pollIntervalMs ?? 2_000;
    this.logger = options.logger ?? silentLogger;
    this.reporting = {
      pool: this.pool,
      logger: this.logger,
      onDelivered: options.onDelivered,
      metrics: options.metrics,
    };
    this.lagGauge = options.metrics?.projectionLag;
    this.ownsNotifications = !options.notifications;
    this.notifications = options.notifications ?? new EventLogNotifications(this.pool, this.logger);
  }

  /** Loads the checkpoints and starts following the logs; resolves before catching up. */
  async start(): Promise<void> {
    if (this.loop) return;
    for (const source of this.consumer.sources) this.cursors.set(source, await this.loadCursor(source));
    await this.notifications.start();
    for (const source of this.consumer.sources) this.unknown.add(source);
    const inProcess = this.stores.filter((s) => this.consumer.sources.includes(s.schema));
    this.unsubscribes = [
      ...this.consumer.sources.map((source) =>
        this.notifications.on(source, (from) => {
          // A commit on a connection of a store's pool was announced by that store (onAppended) already.
          const store = inProcess.find((s) => s.schema === source);
          if (store && from !== undefined && isBackendOf(store.pool, from)) return;
          this.unknown.add(source);
          this.wakeup.notify();
        }),
      ),
      ...inProcess.map((s) => s.onAppended((events) => this.appendedInProcess(s.schema, events))),
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
    clearTimeout(this.unwantedTimer);
    this.unwantedTimer = undefined;
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
        // What was committed meanwhile is not known (a lost connection also loses notifications): ask.
        for (const source of this.consumer.sources) this.unknown.add(source);
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

  /**
   * Events this process committed to `source`: the consumer is woken at once when it wants one of them;
   * for only unwanted ones, its checkpoint moves up to a second later, past all that came meanwhile.
   */
  private appendedInProcess(source: string, events: RecordedEvent[]): void {
    if (events.length === 0) return;
    const known = this.appended.get(source) ?? { any: positionOf(events[0]!) };
    for (const e of events) {
      const at = positionOf(e);
      if (isAfter(at, known.any)) known.any = at;
      if (wants(this.consumer, e.type) && (!known.wanted || isAfter(at, known.wanted))) known.wanted = at;
    }
    this.appended.set(source, known);
    if (events.some((e) => wants(this.consumer, e.type))) this.wakeup.notify();
    else this.wakeLater();
  }

  /**
   * Wakes the loop within UNWANTED_WAKE_MS if some appended event is still past a cursor by then: at the next
   * whole UNWANTED_WAKE_MS of the clock, so the process's subscriptions wake together and share their reads
   * (SourceLogReader) and checkpoint moves (CheckpointMoves).
   */
  private wakeLater(): void {
    if (this.unwantedTimer || !this.abort || this.abort.signal.aborted) return;
    this.unwantedTimer = setTimeout(
      () => {
        this.unwantedTimer = undefined;
        const behind = [...this.appended].some(([source, known]) => isAfter(known.any, this.cursorOf(source)));
        if (behind) this.wakeup.notify();
      },
      UNWANTED_WAKE_MS - (Date.now() % UNWANTED_WAKE_MS),
    );
    this.unwantedTimer.unref();
  }

  private async pollSource(source: string, signal: AbortSignal): Promise<{ next: Next; progressed: boolean }> {
    // Taken before reading: a commit of unknown extent arriving during this poll is asked about by the next.
    const unknown =
      this.unknown.delete(source) || Date.now() - (this.checkedAt.get(source) ?? 0) >= this.pollIntervalMs / 2;
    // With the unknown extent asked about in the same statement (read.check).
    const read = await this.readers.get(source)!.read(this.cursorOf(source), this.batchSize, unknown);
    const { events } = read;
    if (events.length > 0 && !(await this.processBatch(source, events, signal)))
      return { next: 'now', progressed: false };
    const progressed = events.length > 0;
    if (read.more) return { next: 'now', progressed };
    const after = this.cursorOf(source);
    const known = this.appended.get(source);
    if (known && isAfter(known.any, after)) this.wakeLater();
    if (!unknown) {
      // Only this process's appends since the last check, and where they are is known: no query. One the
      // consumer wants still past the cursor waits behind an older transaction.
      const head =
        known && known.any.globalPosition > (this.heads.get(source) ?? 0n) ? known.any.globalPosition : undefined;
      if (head !== undefined) this.heads.set(source, head);
      this.setLag(source, after);
      return { next: known?.wanted && isAfter(known.wanted, after) ? 'soon' : 'idle', progressed };
    }
    // Committed events past the cursor that the read held back (asked in its statement, at its snapshot): they
    // wait behind an older transaction. What committed after that snapshot wakes this loop (onAppended, NOTIFY).
    const { pending, head } = read.check!;
    this.checkedAt.set(source, Date.now());
    if (head !== undefined) this.heads.set(source, head);
    this.setLag(source, after);
    if (pending) this.unknown.add(source); // still of unknown extent: ask again next time
    return { next: pending ? 'soon' : 'idle', progressed };
  }

  /** Positions are a per-schema sequence, so the distance is the lag in events (rolled-back gaps aside). */
  private setLag(source: string, after: Cursor): void {
    const head = this.heads.get(source);
    if (this.lagGauge && head !== undefined)
      this.lagGauge.set({ consumer: this.consumer.name, source }, Math.max(0, Number(head - after.globalPosition)));
  }

  /**
   * A batch's events claimed at once (claimEvents), then the claimed ones applied: handed to the consumer's
   * handleBatch together (a read model loads and writes each of its tables once for the whole batch), or to
   * handle() one at a time (`at` tells which one is being applied, for a failure).
   */
  private async applyBatch(tx: PoolClient, events: RecordedEvent[], at: (i: number) => void): Promise<Applied[]> {
    const claims = await claimEvents(tx, this.consumer, events);
    const results: Applied[] = claims.map((c) => ({ outcome: c === 'claimed' ? 'handled' : c }));
    const claimed = claims.flatMap((c, i) => (c === 'claimed' ? [i] : []));
    if (claimed.length === 0) return results;
    if (!this.consumer.handleBatch) {
      for (const i of claimed) {
        at(i);
        const effect = await this.consumer.handle(events[i]!, tx);
        if (effect !== undefined) results[i] = { outcome: 'handled', effect };
      }
      return results;
    }
    const effects = await this.consumer.handleBatch(
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
        // First, so that it also holds the checkpoint row for the transaction: two instances of one consumer
        // never apply the same events concurrently, and the claims below read the latest versions.
        if (!(await this.moveCheckpoint(tx, source, events[events.length - 1]!))) return 'superseded' as const;
        const results = await this.applyBatch(tx, events, (i) => (failedIndex = i));
        failedIndex = undefined;
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
   * apply, so no transaction, only the checkpoint moved (else another instance moved it: reload).
   */
  private async skipBatch(source: string, events: RecordedEvent[]): Promise<boolean> {
    const last = positionOf(events[events.length - 1]!);
    if (
      !(await this.checkpointMoves.move(this.consumer.schema, this.consumer.name, source, last, this.cursorOf(source)))
    ) {
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
   * Moves the checkpoint of `source` to `last` if it is still where this instance left it, in one conditional
   * UPDATE; false when another instance had moved it. In a transaction the row stays locked until it ends.
   */
  private async moveCheckpoint(db: Pool | PoolClient, source: string, last: RecordedEvent): Promise<boolean> {
    const mine = this.cursorOf(source);
    const moved = await db.query(
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
    return moved.rowCount === 1;
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
