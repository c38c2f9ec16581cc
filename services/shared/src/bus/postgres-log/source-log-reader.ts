import type { Pool } from 'pg';
import { EVENT_COLUMNS, type EventRow, type PostgresEventStore } from '../../eventstore/postgres-event-store.ts';
import type { RecordedEvent } from '../../eventstore/types.ts';

/** Position in one source's log: the last event processed (commit-safe order of PostgresEventStore.readAll). */
export interface LogCursor {
  transactionId: bigint;
  globalPosition: bigint;
}

/** What one consumer's read of a source log returned. */
export interface LogRead {
  /** The events past the consumer's cursor, in log order, at most its limit. */
  events: RecordedEvent[];
  /** The read stopped at a limit: more may follow the last event. */
  more: boolean;
  /**
   * Only when asked for (check): whether committed events past the read are held back behind an older open
   * transaction, and the log's head, both at the read's snapshot.
   */
  check?: { pending: boolean; head: bigint | undefined };
}

interface Request {
  after: LogCursor;
  limit: number;
  check: boolean;
  resolve: (read: LogRead) => void;
  reject: (err: unknown) => void;
}

const isAfter = (a: LogCursor, b: LogCursor): boolean =>
  a.transactionId > b.transactionId || (a.transactionId === b.transactionId && a.globalPosition > b.globalPosition);

/**
 * One source log read for the consumers of this process that want to read it at the same moment: the
 * consumers an append wakes all ask at once, and one query (from the lowest of their cursors) serves them,
 * each getting the events past its own cursor. Only requests made before the query was sent share it, so each
 * consumer sees the log as of after it asked, exactly as its own readAll would (nothing is cached).
 */
export class SourceLogReader {
  private pending: Request[] = [];
  private scheduled = false;

  constructor(
    private readonly store: PostgresEventStore,
    /** Connections for the held-back check (the subscriptions' pool); events are read with the store's. */
    private readonly pool: Pool,
  ) {}

  get source(): string {
    return this.store.schema;
  }

  /**
   * The events after `after` (at most `limit`); with `check`, also whether events past them are held back.
   * Requests made in the same turn of the event loop share a query.
   */
  read(after: LogCursor, limit: number, check = false): Promise<LogRead> {
    return new Promise<LogRead>((resolve, reject) => {
      this.pending.push({ after, limit, check, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        const requests = this.pending;
        this.pending = [];
        void this.serve(requests);
      });
    });
  }

  /** Serves requests from the lowest cursor up: one query, then another only for cursors past a full window. */
  private async serve(requests: Request[]): Promise<void> {
    let left = [...requests].sort((a, b) => (isAfter(a.after, b.after) ? 1 : isAfter(b.after, a.after) ? -1 : 0));
    while (left.length > 0) {
      const from = left[0]!.after;
      const limit = Math.max(...left.map((r) => r.limit));
      const check = left.some((r) => r.check);
      let window: { events: RecordedEvent[]; check?: LogRead['check'] };
      try {
        window = check ? await this.readChecked(from, limit) : { events: await this.store.readAll(from, limit) };
      } catch (err) {
        for (const r of left) r.reject(err);
        return;
      }
      const full = window.events.length === limit;
      const last = window.events[window.events.length - 1];
      const served = full && last ? left.filter((r) => isAfter(last, r.after)) : left;
      for (const r of served) {
        const start = window.events.findIndex((e) => isAfter(e, r.after));
        const mine = start < 0 ? [] : window.events.slice(start);
        r.resolve({
          events: mine.slice(0, r.limit),
          more: mine.length > r.limit || full,
          check: window.check,
        });
      }
      left = left.filter((r) => !served.includes(r));
    }
  }

  /**
   * readAll's events (PostgresEventStore.readAll: those of transactions older than any still open, so none
   * can later appear before them) and, at the same snapshot, whether committed events past the cursor are
   * held back (behind the same horizon they are past any event read) and the log's head.
   */
  private async readChecked(
    after: LogCursor,
    limit: number,
  ): Promise<{ events: RecordedEvent[]; check: LogRead['check'] }> {
    const events = `${this.store.schema}.events`;
    const { rows } = await this.pool.query<Partial<EventRow> & { pending: boolean; head: bigint | null }>(
      `WITH horizon AS (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin),
            batch AS (SELECT ${EVENT_COLUMNS} FROM ${events}, horizon
                       WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
                         AND transaction_id < horizon.xmin
                       ORDER BY transaction_id, global_position
                       LIMIT $3),
            log AS (SELECT EXISTS (SELECT 1 FROM ${events}, horizon
                                    WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
                                      AND transaction_id >= horizon.xmin) AS pending,
                           (SELECT max(global_position) FROM ${events}) AS head)
       SELECT log.pending, log.head, batch.* FROM log LEFT JOIN batch ON true
        ORDER BY batch.transaction_id, batch.global_position`,
      [after.transactionId.toString(), after.globalPosition.toString(), limit],
    );
    const head = rows[0]?.head;
    return {
      events: rows.filter((r) => r.global_position != null).map((r) => this.store.fromRow(r as EventRow)),
      check: { pending: rows[0]?.pending ?? false, head: head == null ? undefined : BigInt(head) },
    };
  }
}

/** The readers of a process's subscriptions, one per source log, shared by all who follow that log. */
export class SourceLogReaders {
  private readonly readers = new Map<string, SourceLogReader>();

  /** This source's reader, made with `store` and `pool` by the first subscription that asks. */
  of(store: PostgresEventStore, pool: Pool): SourceLogReader {
    let reader = this.readers.get(store.schema);
    if (!reader) this.readers.set(store.schema, (reader = new SourceLogReader(store, pool)));
    return reader;
  }
}
