import { ConflictError, ValidationError } from '@shop/shared/errors/errors';
import type { StockEvent } from './events.ts';

type Hold = { quantity: number; status: 'reserved' | 'released' | 'committed' };
export type StockState = {
  exists: boolean;
  available: number;
  holds: Map<string, Hold>;
  /** While a checkpoint is open: each hold evolve changed since, as it was before (undefined: absent). */
  journal?: Map<string, Hold | undefined>;
};

export type StockCommand =
  | { type: 'SetStockLevel'; data: { productId: string; size: string | null; available: number; now: Date } }
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
      data: { productId: string; size: string | null; reservationId: string; reason: string; now: Date };
    }
  | { type: 'CommitStock'; data: { productId: string; size: string | null; reservationId: string; now: Date } };

/** Why a reservation was refused; `available` is what could still be had. */
export class InsufficientStockError extends ConflictError {
  constructor(readonly available: number) {
    super(`Only ${available} item(s) available`);
  }
}

export const initialStockState = (): StockState => ({ exists: false, available: 0, holds: new Map() });

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
      state.holds.set(event.data.reservationId, { quantity: event.data.quantity, status: 'reserved' });
      return state;
    case 'StockReleased': {
      state.available += event.data.quantity;
      noteHold(state, event.data.reservationId);
      const h = state.holds.get(event.data.reservationId);
      if (h) h.status = 'released';
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
      const { available } = command.data;
      if (!Number.isInteger(available) || available < 0)
        throw new ValidationError('Stock must be a whole number of at least 0');
      if (state.exists && state.available === available) return [];
      return [{ type: 'StockLevelSet', data: { productId, size, available, at } }];
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
      if (!held || held.status !== 'reserved') return [];
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
          },
        },
      ];
    }
    case 'CommitStock': {
      const { reservationId } = command.data;
      const held = state.holds.get(reservationId);
      if (!held) throw new ConflictError(`No reservation ${reservationId} on this stock`);
      if (held.status === 'committed') return [];
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
