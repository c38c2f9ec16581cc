import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { withTransaction } from '@shop/shared/db/pool';
import { ValidationError } from '@shop/shared/errors/errors';
import { retryOnConflict } from '@shop/shared/eventstore/command';
import type { PostgresEventStore } from '@shop/shared/eventstore/postgres-event-store';
import { StreamWriter } from '@shop/shared/eventstore/stream-writer';
import type { RecordedEvent } from '@shop/shared/eventstore/types';
import {
  decideClaimCode,
  decideCoupon,
  decideReleaseCode,
  evolveCoupon,
  evolveCouponCode,
  initialCouponCodeState,
  initialCouponState,
  type CouponCodeState,
  type CouponCommand,
  type CouponState,
} from './coupon/decider.ts';
import {
  couponCodeStreamId,
  couponStreamId,
  normaliseCode,
  type CouponCodeEvent,
  type CouponEvent,
  type CouponTerms,
} from './coupon/events.ts';

// Advisory-lock class for "one writer at a time per stream" (outbox relays hold 727002; 727001 was the former
// migration runner's, and migrations now serialise on knex's lock row).
const STREAM_WRITER_LOCK = 727003;

type Decide = (state: CouponState, tx: pg.PoolClient, out: RecordedEvent[]) => CouponEvent[] | Promise<CouponEvent[]>;

/** Application service: coupon commands, and the coupon uses checkouts reserve, commit and release. */
export class Coupons {
  /**
   * The single writer of coupon uses in this process: a hot coupon's uses are decided on its state kept in
   * memory, in group-committed batches, not by folding its whole stream under a lock per use. The admin's
   * coupon commands keep the locked transaction below; each side catches the other by the version check.
   */
  private readonly uses: StreamWriter<CouponState, CouponCommand, CouponEvent>;
  /** Checkouts admitted to a coupon (admitUse) that have not yet held their use or failed, by coupon id. */
  private readonly admitted = new Map<string, number>();

  constructor(
    private readonly store: PostgresEventStore,
    private readonly clock: () => Date,
  ) {
    this.uses = new StreamWriter(store, {
      initial: initialCouponState,
      evolve: evolveCoupon,
      decide: decideCoupon,
      // evolveCoupon returns new states: the state before a batch stays as it was.
      checkpoint: (state) => ({ rollback: () => state }),
      actor: 'checkout',
      busyMessage: 'This coupon is very busy, please try again',
    });
  }

  /** Creates a coupon, claiming its code in the same transaction. */
  async create(terms: CouponTerms, actor?: string): Promise<{ couponId: string; version: number }> {
    const couponId = randomUUID();
    const { version } = await this.write(couponId, actor, async (state, tx, out) => {
      const events = decideCoupon({ type: 'CreateCoupon', data: { couponId, terms, now: this.clock() } }, state);
      out.push(...(await this.claimCode(tx, terms.code, couponId)));
      return events;
    });
    return { couponId, version };
  }

  /** Replaces a coupon's terms; moves the code claim when the code changes. Returns the stream version. */
  async update(couponId: string, terms: CouponTerms, actor?: string): Promise<number> {
    const { version } = await this.write(couponId, actor, async (state, tx, out) => {
      const events = decideCoupon({ type: 'UpdateCoupon', data: { terms, now: this.clock() } }, state);
      if (state.status === 'live' && state.terms.code !== terms.code) {
        out.push(...(await this.claimCode(tx, terms.code, couponId)));
        out.push(...(await this.releaseCode(tx, state.terms.code, couponId)));
      }
      return events;
    });
    return version;
  }

  /** Deletes a coupon (an event; its code becomes free). Returns the stream version. */
  async remove(couponId: string, actor?: string): Promise<number> {
    const { version } = await this.write(couponId, actor, async (state, tx, out) => {
      const events = decideCoupon({ type: 'DeleteCoupon', data: { now: this.clock() } }, state);
      if (state.status === 'live') out.push(...(await this.releaseCode(tx, state.terms.code, couponId)));
      return events;
    });
    return version;
  }

  /**
   * Holds one use of a coupon for a checkout, if the coupon applies to the order now and its usage limit
   * is not reached (held and committed uses count). Idempotent per reservationId: a repeat answers the first
   * result. Throws ValidationError with the shopper-facing reason when the coupon cannot be used, and
   * ConflictError when one of `buyers` already holds a live use of it (one unpaid checkout per buyer).
   */
  async reserveUse(input: {
    code: string;
    reservationId: string;
    orderTotalPaise: number;
    /** The buyer's keys (account, or guest address and e-mail); none = no one-hold-per-buyer rule. */
    buyers?: readonly string[];
    /** When the checkout's hold lapses if unpaid. */
    heldUntil?: string | null;
  }): Promise<{ code: string; discountPaise: number }> {
    const code = normaliseCode(input.code);
    if (!code) throw new ValidationError('Please enter a coupon code');
    const claim = await this.codeClaim(code);
    if (claim.owner === null) throw new ValidationError('Invalid coupon code');
    const { state } = await this.uses.run(couponStreamId(claim.owner), {
      type: 'ReserveCouponUse',
      data: {
        reservationId: input.reservationId,
        orderTotalPaise: input.orderTotalPaise,
        now: this.clock(),
        buyers: input.buyers ?? [],
        heldUntil: input.heldUntil ?? null,
      },
    });
    const use = state.status === 'none' ? undefined : state.uses[input.reservationId];
    if (!use) throw new Error(`Coupon use ${input.reservationId} was not recorded`);
    return { code, discountPaise: use.discountPaise };
  }

  /**
   * Admits a checkout to use the coupon before it takes stock, or throws what reserveUse would throw now (a
   * code unknown, inactive, out of its dates or used up, or already held by one of `buyers`), holding nothing.
   * Checkouts admitted and not yet done count against the usage limit with the uses held (in this process), so
   * a coupon race's losers are told the coupon is used up at once instead of holding stock for a moment and
   * telling others a false 'only has 0 item(s) available'. Call `done` when the checkout held its use or failed.
   * The minimum order is checked when the use is held (the order's total is known then).
   */
  async admitUse(input: { code: string; buyers?: readonly string[] }): Promise<{ done: () => void }> {
    const code = normaliseCode(input.code);
    if (!code) throw new ValidationError('Please enter a coupon code');
    const claim = await this.codeClaim(code);
    const couponId = claim.owner;
    if (couponId === null) throw new ValidationError('Invalid coupon code');
    const now = this.clock();
    // The decision a reservation would get, for an order large enough for any minimum, with the admitted
    // checkouts counted; nothing is written. The refusal is carried out of the read (a read callback must not
    // throw: it runs in the writer's turn), and the admission is counted in that same turn.
    const refusal = await this.uses.read(couponStreamId(couponId), (state): unknown => {
      const admitted = this.admitted.get(couponId) ?? 0;
      try {
        decideCoupon(
          {
            type: 'ReserveCouponUse',
            data: {
              reservationId: `admit-${randomUUID()}`,
              orderTotalPaise: Number.MAX_SAFE_INTEGER,
              now,
              buyers: input.buyers ?? [],
              heldUntil: null,
            },
          },
          state.status === 'none' ? state : { ...state, usesCounted: state.usesCounted + admitted },
        );
      } catch (err) {
        return err;
      }
      this.admitted.set(couponId, admitted + 1);
      return null;
    });
    if (refusal) throw refusal;
    let done = false;
    return {
      done: () => {
        if (done) return;
        done = true;
        const left = (this.admitted.get(couponId) ?? 1) - 1;
        if (left > 0) this.admitted.set(couponId, left);
        else this.admitted.delete(couponId);
      },
    };
  }

  /**
   * Gives back every use a reservation holds, whatever coupon (found in the log by reservation id,
   * migration 028): for a checkout that died before recording its order. Answers how many were released.
   */
  async releaseUsesOf(reservationId: string): Promise<number> {
    const { rows } = await this.store.pool.query<{ coupon_id: string }>(
      `SELECT DISTINCT data->>'couponId' AS coupon_id FROM ${this.store.schema}.events
        WHERE type = 'CouponUseReserved' AND data->>'reservationId' = $1`,
      [reservationId],
    );
    let released = 0;
    for (const { coupon_id: couponId } of rows) {
      const { events } = await this.uses.run(couponStreamId(couponId), {
        type: 'ReleaseCouponUse',
        data: { reservationId, now: this.clock() },
      });
      released += events.length;
    }
    return released;
  }

  /** Gives a held use back (payment never came). Idempotent; a no-op when nothing is held. */
  releaseUse(code: string, reservationId: string): Promise<void> {
    return this.settle(code, reservationId, 'ReleaseCouponUse');
  }

  /** Turns a held use into a used one (payment arrived). Idempotent; a no-op when nothing is held. */
  commitUse(code: string, reservationId: string): Promise<void> {
    return this.settle(code, reservationId, 'CommitCouponUse');
  }

  /** Gives a cancelled order's use back, if the coupon allows it (mayReturnUse). Idempotent. */
  returnUse(code: string, reservationId: string): Promise<void> {
    return this.settle(code, reservationId, 'ReturnCouponUse');
  }

  // The coupon may have been deleted (its code freed, even taken by a newer coupon) while the checkout
  // was waiting for payment: look through every coupon that held the code, newest first.
  private async settle(
    code: string,
    reservationId: string,
    type: 'ReleaseCouponUse' | 'CommitCouponUse' | 'ReturnCouponUse',
  ): Promise<void> {
    const normalised = normaliseCode(code);
    if (!normalised) return;
    const { holders } = await this.codeClaim(normalised);
    for (const couponId of [...holders].reverse()) {
      const { state } = await this.uses.run(couponStreamId(couponId), {
        type,
        data: { reservationId, now: this.clock() },
      });
      if (state.status !== 'none' && state.uses[reservationId]) return;
    }
  }

  /**
   * Runs one command on a coupon stream in one transaction. Writers of a stream take its advisory lock
   * before reading it, so concurrent reservations (from any process) decide one after another on fresh
   * state instead of failing on version conflicts and retrying; the version check stays as the backstop.
   * Returns the state after the command and the stream's version.
   */
  private async write(
    couponId: string,
    actor: string | undefined,
    decide: Decide,
  ): Promise<{ state: CouponState; version: number }> {
    const streamId = couponStreamId(couponId);
    return retryOnConflict(async () => {
      const out: RecordedEvent[] = [];
      const result = await withTransaction(this.store.pool, async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [
          STREAM_WRITER_LOCK,
          `${this.store.schema}.${streamId}`,
        ]);
        const { state, version } = await this.store.aggregate<CouponState, CouponEvent>(
          streamId,
          evolveCoupon,
          initialCouponState(),
          tx,
        );
        const events = await decide(state, tx, out);
        if (!events.length) return { state, version };
        const r = await this.store.append(streamId, version, events, { tx, metadata: { actor } });
        out.push(...r.events);
        return { state: events.reduce(evolveCoupon, state), version: r.nextExpectedVersion };
      });
      this.store.notifyAppended(out);
      return result;
    });
  }

  private async codeClaim(code: string): Promise<CouponCodeState> {
    return (
      await this.store.aggregate<CouponCodeState, CouponCodeEvent>(
        couponCodeStreamId(code),
        evolveCouponCode,
        initialCouponCodeState(),
      )
    ).state;
  }

  private async claimCode(tx: pg.PoolClient, code: string, couponId: string): Promise<RecordedEvent[]> {
    return this.changeCodeClaim(tx, code, (state) => decideClaimCode({ code: normaliseCode(code), couponId }, state));
  }

  private async releaseCode(tx: pg.PoolClient, code: string, couponId: string): Promise<RecordedEvent[]> {
    return this.changeCodeClaim(tx, code, (state) => decideReleaseCode({ code: normaliseCode(code), couponId }, state));
  }

  private async changeCodeClaim(
    tx: pg.PoolClient,
    code: string,
    decide: (state: CouponCodeState) => CouponCodeEvent[],
  ): Promise<RecordedEvent[]> {
    const streamId = couponCodeStreamId(code);
    const { state, version } = await this.store.aggregate<CouponCodeState, CouponCodeEvent>(
      streamId,
      evolveCouponCode,
      initialCouponCodeState(),
      tx,
    );
    const events = decide(state);
    if (!events.length) return [];
    return (await this.store.append(streamId, version, events, { tx })).events;
  }
}
