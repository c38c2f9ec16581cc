import { ConflictError, ValidationError } from '@shop/shared/errors/errors';
import type { StockEvent } from './events.ts';

/** A hold on this stock; `moved`: taken over by another stock of the product (StockReleased's movedTo). */
type Hold = {
  quantity: number;
  /** returned: sold, then given back (a cancelled order): never sold again. */
  status: 'reserved' | 'released' | 'committed' | 'moved' | 'returned';
  /** The catalog's backstop of the hold (StockReserved's expiresAt), kept for a stock that takes it over. */
  expiresAt?: string;
};
export type StockState = {
  exists: boolean;
  available: number;
  holds: Map<string, Hold>;
  /** While a checkpoint is open: each hold evolve changed since, as it was before (undefined: absent). */
  journal?: Map<string, Hold | undefined>;
};

export type StockCommand =
  | {
      type: 'SetStockLevel';
      data: {
        productId: string;
        size: string | null;
        available: number;
        now: Date;
        /**
         * The product's stock mode no longer sells from this stock (the general count of a product sold by
         * size, a size of one sold by one count, a size dropped): nothing is on sale (`available` must be 0),
         * and the level is set to minus the units its live holds still hold, so a hold released later
         * retires its units instead of putting them on sale; a hold paid for is still a sale.
         */
        offSale?: boolean;
      };
    }
  | {
      /** Gives a live hold to another stock of the product, which takes it over (TakeOverHold) first. */
      type: 'MoveHold';
      data: { productId: string; size: string | null; reservationId: string; toSize: string | null; now: Date };
    }
  | {
      /**
       * Holds units another stock of the product held (a switch from sizes to one count): no units of this
       * stock are asked for (they come with the hold), so its level goes down by them until the level the
       * admin set is set after; released, they come back here, paid, they are a sale.
       */
      type: 'TakeOverHold';
      data: {
        productId: string;
        size: string | null;
        reservationId: string;
        quantity: number;
        now: Date;
        expiresAt?: string;
      };
    }
  | {
      type: 'ReserveStock';
      data: {
        productId: string;
        size: string | null;
        reservationId: string;
        quantity: number;
        now: Date;
        /** When the catalog releases the hold if no checkout has settled it (its backstop). */
        expiresAt?: Date;
      };
    }
  | {
      type: 'ReleaseStock';
      data: {
        productId: string;
        size: string | null;
        reservationId: string;
        reason: string;
        now: Date;
        /** Also a hold already sold (a cancelled order's): its units come back, the sale is returned. */
        returnSale?: boolean;
      };
    }
  | { type: 'CommitStock'; data: { productId: string; size: string | null; reservationId: string; now: Date } };

/** Why a reservation was refused; `available` is what could still be had. */
export class InsufficientStockError extends ConflictError {
  constructor(readonly available: number) {
    super(`Only ${available} item(s) available`);
  }
}

export const initialStockState = (): StockState => ({ exists: false, available: 0, holds: new Map() });

/** The units the stock's live holds hold (reserved, neither released, paid for nor moved). */
export function heldUnits(state: StockState): number {
  let held = 0;
  for (const h of state.holds.values()) if (h.status === 'reserved') held += h.quantity;
  return held;
}

/** The live holds of the stock, by hold id. */
export function liveHolds(state: StockState): Array<[string, { quantity: number; expiresAt?: string }]> {
  return [...state.holds].filter(([, h]) => h.status === 'reserved');
}

/**
 * The way back to `state` as it is now (the stream writer's checkpoint before a batch): evolve records the
 * holds it changes from here on, so going back costs what the batch touched, not a copy of every hold.
 */
export function checkpointStock(state: StockState): { rollback(): StockState; forget(): void } {
  const { exists, available } = state;
  const journal = new Map<string, Hold | undefined>();
  state.journal = journal;
  const forget = () => {
    if (state.journal === journal) delete state.journal;
  };
  return {
    rollback() {
      for (const [id, hold] of journal) {
        if (hold) state.holds.set(id, hold);
        else state.holds.delete(id);
      }
      state.exists = exists;
      state.available = available;
      forget();
      return state;
    },
    forget,
  };
}

/** Notes a hold's value before evolve changes it, while a checkpoint is open. */
function noteHold(state: StockState, id: string): void {
  if (!state.journal || state.journal.has(id)) return;
  const hold = state.holds.get(id);
  state.journal.set(id, hold && { ...hold });
}

/** Mutates and returns `state` (the single writer keeps one state per hot stream; copying it per event would dominate). */
export function evolveStock(state: StockState, event: StockEvent): StockState {
  switch (event.type) {
    case 'StockLevelSet':
      state.exists = true;
      state.available = event.data.available;
      return state;
    case 'StockReserved':
      state.available -= event.data.quantity;
      noteHold(state, event.data.reservationId);
      state.holds.set(event.data.reservationId, {
        quantity: event.data.quantity,
        status: 'reserved',
        ...(event.data.expiresAt ? { expiresAt: event.data.expiresAt } : {}),
      });
      return state;
    case 'StockReleased': {
      state.available += event.data.quantity;
      noteHold(state, event.data.reservationId);
      const h = state.holds.get(event.data.reservationId);
      if (h) h.status = event.data.movedTo ? 'moved' : event.data.returned ? 'returned' : 'released';
      return state;
    }
    case 'StockCommitted': {
      noteHold(state, event.data.reservationId);
      const h = state.holds.get(event.data.reservationId);
      if (h) h.status = 'committed';
      return state;
    }
  }
}

export function decideStock(command: StockCommand, state: StockState): StockEvent[] {
  const at = command.data.now.toISOString();
  const { productId, size } = command.data;
  switch (command.type) {
    case 'SetStockLevel': {
      const { offSale } = command.data;
      if (!Number.isInteger(command.data.available) || command.data.available < 0)
        throw new ValidationError('Stock must be a whole number of at least 0');
      if (offSale && command.data.available !== 0) throw new ValidationError('A stock off sale has no units on sale');
      const available = offSale ? 0 - heldUnits(state) : command.data.available; // never -0
      if (state.exists && state.available === available) return [];
      return [{ type: 'StockLevelSet', data: { productId, size, available, at } }];
    }
    case 'MoveHold': {
      const { reservationId, toSize } = command.data;
      const held = state.holds.get(reservationId);
      if (!held || held.status !== 'reserved') return [];
      const reason = `moved to the ${toSize === null ? 'general stock' : `stock of size ${toSize}`}`;
      return [
        {
          type: 'StockReleased',
          data: { productId, size, reservationId, quantity: held.quantity, reason, at, movedTo: { size: toSize } },
        },
      ];
    }
    case 'TakeOverHold': {
      const { reservationId, quantity, expiresAt } = command.data;
      if (!Number.isInteger(quantity) || quantity < 1)
        throw new ValidationError('Quantity must be a whole number of at least 1');
      const held = state.holds.get(reservationId);
      if (held && (held.status === 'reserved' || held.status === 'moved'))
        throw new ConflictError(`Hold ${reservationId} is already on this stock`);
      return [
        {
          type: 'StockReserved',
          data: { productId, size, reservationId, quantity, at, ...(expiresAt ? { expiresAt } : {}) },
        },
      ];
    }
    case 'ReserveStock': {
      const { reservationId, quantity } = command.data;
      if (!Number.isInteger(quantity) || quantity < 1)
        throw new ValidationError('Quantity must be a whole number of at least 1');
      const held = state.holds.get(reservationId);
      if (held && held.status !== 'released') return []; // the same reservation again: already held
      if (state.available < quantity) throw new InsufficientStockError(Math.max(0, state.available));
      const expiresAt = command.data.expiresAt?.toISOString();
      return [
        {
          type: 'StockReserved',
          data: { productId, size, reservationId, quantity, at, ...(expiresAt ? { expiresAt } : {}) },
        },
      ];
    }
    case 'ReleaseStock': {
      const held = state.holds.get(command.data.reservationId);
      const { returnSale } = command.data;
      if (!held || !(held.status === 'reserved' || (returnSale && held.status === 'committed'))) return [];
      const returned = returnSale ? (held.status === 'committed' ? 'sold' : 'held') : undefined;
      return [
        {
          type: 'StockReleased',
          data: {
            productId,
            size,
            reservationId: command.data.reservationId,
            quantity: held.quantity,
            reason: command.data.reason,
            at,
            ...(returned ? { returned } : {}),
          },
        },
      ];
    }
    case 'CommitStock': {
      const { reservationId } = command.data;
      const held = state.holds.get(reservationId);
      if (!held) throw new ConflictError(`No reservation ${reservationId} on this stock`);
      // Moved: the stock that took the hold over sells it. Returned: its order was cancelled.
      if (held.status === 'committed' || held.status === 'moved' || held.status === 'returned') return [];
      if (held.status === 'reserved')
        return [{ type: 'StockCommitted', data: { productId, size, reservationId, quantity: held.quantity, at } }];
      // Paid after the hold lapsed: take the units again if they are still there, else the payment is refunded.
      if (state.available < held.quantity) throw new InsufficientStockError(Math.max(0, state.available));
      return [
        { type: 'StockReserved', data: { productId, size, reservationId, quantity: held.quantity, at } },
        { type: 'StockCommitted', data: { productId, size, reservationId, quantity: held.quantity, at } },
      ];
    }
    default: {
      const never: never = command;
      throw new Error(`Unknown command ${JSON.stringify(never)}`);
    }
  }
}
