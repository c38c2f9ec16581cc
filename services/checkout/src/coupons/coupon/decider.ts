import { isDeepStrictEqual } from 'node:util';
import { ConflictError, NotFoundError, ValidationError } from '@shop/shared/errors/errors';
import { checkEligibility, termsProblem } from './eligibility.ts';
import type { CouponCodeEvent, CouponEvent, CouponTerms } from './events.ts';

// ---- coupon-<id> ----
export type CouponUse = {
  /** returned: used, then given back when its order was cancelled. */
  status: 'reserved' | 'committed' | 'released' | 'returned';
  discountPaise: number;
  /** The buyer keys of the checkout that holds it (empty for uses recorded before buyers were). */
  buyers: readonly string[];
  /** When the checkout's hold lapses unpaid (null: not recorded). */
  heldUntil: string | null;
};

export type CouponState =
  | { status: 'none' }
  | {
      status: 'live' | 'deleted';
      couponId: string;
      terms: CouponTerms;
      /** Every use by reservation id, released ones included (a released reservation stays released). */
      uses: Readonly<Record<string, CouponUse>>;
      /** Uses that count against the limit: reserved and not released, plus committed. */
      usesCounted: number;
    };

export type CouponCommand =
  | { type: 'CreateCoupon'; data: { couponId: string; terms: CouponTerms; now: Date } }
  | { type: 'UpdateCoupon'; data: { terms: CouponTerms; now: Date } }
  | { type: 'DeleteCoupon'; data: { now: Date } }
  | {
      type: 'ReserveCouponUse';
      data: {
        reservationId: string;
        orderTotalPaise: number;
        now: Date;
        /** The buyer's keys (account, or guest address and e-mail); empty = no one-hold-per-buyer rule. */
        buyers: readonly string[];
        /** When the checkout's hold lapses if unpaid. */
        heldUntil: string | null;
      };
    }
  | { type: 'ReleaseCouponUse'; data: { reservationId: string; now: Date } }
  | { type: 'CommitCouponUse'; data: { reservationId: string; now: Date } }
  /** Its order was cancelled: the use is given back if the coupon allows it (mayReturnUse). */
  | { type: 'ReturnCouponUse'; data: { reservationId: string; now: Date } };

export const initialCouponState = (): CouponState => ({ status: 'none' });

export function evolveCoupon(state: CouponState, event: CouponEvent): CouponState {
  switch (event.type) {
    case 'CouponCreated': {
      const { couponId, createdAt: _c, ...terms } = event.data;
      return { status: 'live', couponId, terms, uses: {}, usesCounted: 0 };
    }
    case 'CouponUpdated': {
      if (state.status === 'none') return state;
      const { couponId: _id, updatedAt: _u, ...terms } = event.data;
      return { ...state, terms };
    }
    case 'CouponDeleted':
      return state.status === 'none' ? state : { ...state, status: 'deleted' };
    case 'CouponUseReserved': {
      if (state.status === 'none') return state;
      const { reservationId, discountPaise, buyers = [], heldUntil = null } = event.data;
      return {
        ...state,
        uses: { ...state.uses, [reservationId]: { status: 'reserved', discountPaise, buyers, heldUntil } },
        usesCounted: state.usesCounted + 1,
      };
    }
    case 'CouponUseReleased': {
      const use = state.status === 'none' ? undefined : state.uses[event.data.reservationId];
      if (state.status === 'none' || use?.status !== 'reserved') return state;
      return {
        ...state,
        uses: { ...state.uses, [event.data.reservationId]: { ...use, status: 'released' } },
        usesCounted: state.usesCounted - 1,
      };
    }
    case 'CouponUseCommitted': {
      const use = state.status === 'none' ? undefined : state.uses[event.data.reservationId];
      if (state.status === 'none' || use?.status !== 'reserved') return state;
      return { ...state, uses: { ...state.uses, [event.data.reservationId]: { ...use, status: 'committed' } } };
    }
    case 'CouponUseReturned': {
      const use = state.status === 'none' ? undefined : state.uses[event.data.reservationId];
      if (state.status === 'none' || use?.status !== 'committed') return state;
      return {
        ...state,
        uses: { ...state.uses, [event.data.reservationId]: { ...use, status: 'returned' } },
        usesCounted: state.usesCounted - 1,
      };
    }
  }
}

/**
 * Whether a cancelled order's use goes back to the coupon: only a live coupon's (a deleted one counts
 * nothing any more) and only one that was used, or is still held, by that order.
 */
export function mayReturnUse(state: CouponState, reservationId: string): boolean {
  if (state.status !== 'live') return false;
  const use = state.uses[reservationId]?.status;
  return use === 'committed' || use === 'reserved';
}

const checkTerms = (terms: CouponTerms) => {
  const problem = termsProblem(terms);
  if (problem) throw new ValidationError(problem);
};

/**
 * A use this buyer holds now: reserved (neither paid nor released) and its checkout's hold not yet lapsed
 * (the expiry sweep releases a lapsed one a little later).
 */
export function liveUseOf(
  state: CouponState,
  buyers: readonly string[],
  now: Date,
): { reservationId: string; use: CouponUse } | null {
  if (state.status === 'none' || buyers.length === 0) return null;
  for (const [reservationId, use] of Object.entries(state.uses)) {
    if (use.status !== 'reserved') continue;
    if (use.heldUntil !== null && Date.parse(use.heldUntil) <= now.getTime()) continue;
    if (use.buyers.some((b) => buyers.includes(b))) return { reservationId, use };
  }
  return null;
}

const live = (state: CouponState) => {
  if (state.status !== 'live') throw new NotFoundError('Coupon not found');
  return state;
};

export function decideCoupon(command: CouponCommand, state: CouponState): CouponEvent[] {
  switch (command.type) {
    case 'CreateCoupon': {
      if (state.status !== 'none') throw new ConflictError('Coupon already exists');
      const { couponId, terms, now } = command.data;
      checkTerms(terms);
      return [{ type: 'CouponCreated', data: { couponId, ...terms, createdAt: now.toISOString() } }];
    }
    case 'UpdateCoupon': {
      const s = live(state);
      const { terms, now } = command.data;
      checkTerms(terms);
      if (isDeepStrictEqual(terms, s.terms)) return [];
      return [{ type: 'CouponUpdated', data: { couponId: s.couponId, ...terms, updatedAt: now.toISOString() } }];
    }
    case 'DeleteCoupon': {
      const s = live(state);
      return [
        {
          type: 'CouponDeleted',
          data: { couponId: s.couponId, code: s.terms.code, deletedAt: command.data.now.toISOString() },
        },
      ];
    }
    case 'ReserveCouponUse': {
      const { reservationId, orderTotalPaise, now, buyers, heldUntil } = command.data;
      const earlier = state.status === 'none' ? undefined : state.uses[reservationId];
      // A repeated reservation answers what the first one got, whatever changed since.
      if (earlier?.status === 'reserved' || earlier?.status === 'committed') return [];
      if (earlier?.status === 'released')
        throw new ConflictError(`Coupon reservation ${reservationId} was released; start a new checkout`);
      if (state.status !== 'live') throw new ValidationError('Invalid coupon code');
      const eligibility = checkEligibility(state.terms, { orderTotalPaise, usesCounted: state.usesCounted, now });
      if (!eligibility.ok) throw new ValidationError(eligibility.message);
      // One live hold per buyer: unpaid checkouts by one buyer must not use up a coupon's limit.
      if (liveUseOf(state, buyers, now))
        throw new ConflictError(
          `You already have an unpaid checkout using coupon ${state.terms.code}; pay for it or wait for it to expire before using the coupon again`,
        );
      return [
        {
          type: 'CouponUseReserved',
          data: {
            couponId: state.couponId,
            code: state.terms.code,
            reservationId,
            orderTotalPaise,
            discountPaise: eligibility.discountPaise,
            reservedAt: now.toISOString(),
            buyers: [...buyers],
            heldUntil,
          },
        },
      ];
    }
    // Release and commit also apply to a deleted coupon: its checkouts in flight still settle.
    case 'ReleaseCouponUse': {
      const { reservationId, now } = command.data;
      if (state.status === 'none' || state.uses[reservationId]?.status !== 'reserved') return [];
      return [
        { type: 'CouponUseReleased', data: { couponId: state.couponId, reservationId, releasedAt: now.toISOString() } },
      ];
    }
    case 'CommitCouponUse': {
      const { reservationId, now } = command.data;
      if (state.status === 'none' || state.uses[reservationId]?.status !== 'reserved') return [];
      return [
        {
          type: 'CouponUseCommitted',
          data: { couponId: state.couponId, reservationId, committedAt: now.toISOString() },
        },
      ];
    }
    case 'ReturnCouponUse': {
      const { reservationId, now } = command.data;
      if (!mayReturnUse(state, reservationId) || state.status === 'none') return [];
      // Still held (the sale's commit has not run yet): released, never to be committed.
      if (state.uses[reservationId]?.status === 'reserved')
        return [
          { type: 'CouponUseReleased', data: { couponId: state.couponId, reservationId, releasedAt: now.toISOString() } },
        ];
      return [
        { type: 'CouponUseReturned', data: { couponId: state.couponId, reservationId, returnedAt: now.toISOString() } },
      ];
    }
    default: {
      const never: never = command;
      throw new Error(`Unknown command ${JSON.stringify(never)}`);
    }
  }
}

// ---- coupon-code-<CODE>: one live coupon per code ----
export type CouponCodeState = {
  owner: string | null;
  /** Every coupon that ever held the code, newest last (to settle uses of a since-deleted coupon). */
  holders: string[];
};
export const initialCouponCodeState = (): CouponCodeState => ({ owner: null, holders: [] });

export function evolveCouponCode(state: CouponCodeState, event: CouponCodeEvent): CouponCodeState {
  switch (event.type) {
    case 'CouponCodeClaimed':
      return {
        owner: event.data.couponId,
        holders: state.holders.includes(event.data.couponId) ? state.holders : [...state.holders, event.data.couponId],
      };
    case 'CouponCodeReleased':
      return state.owner === event.data.couponId ? { ...state, owner: null } : state;
  }
}

export function decideClaimCode(cmd: { code: string; couponId: string }, state: CouponCodeState): CouponCodeEvent[] {
  if (state.owner === cmd.couponId) return [];
  if (state.owner !== null) throw new ConflictError('Coupon code already exists');
  return [{ type: 'CouponCodeClaimed', data: cmd }];
}

export function decideReleaseCode(cmd: { code: string; couponId: string }, state: CouponCodeState): CouponCodeEvent[] {
  return state.owner === cmd.couponId ? [{ type: 'CouponCodeReleased', data: cmd }] : [];
}
