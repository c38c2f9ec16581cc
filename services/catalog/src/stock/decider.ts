import { ValidationError } from '@shop/shared/errors/errors';
import type { StockEvent } from './events.ts';

export type StockState = { exists: boolean; available: number };
export type StockCommand = {
  type: 'SetStockLevel';
  data: { productId: string; size: string | null; available: number; now: Date };
};

export const initialStockState = (): StockState => ({ exists: false, available: 0 });

export function evolveStock(state: StockState, event: StockEvent): StockState {
  switch (event.type) {
    case 'StockLevelSet':
      return { exists: true, available: event.data.available };
  }
}

export function decideStock(command: StockCommand, state: StockState): StockEvent[] {
  switch (command.type) {
    case 'SetStockLevel': {
      const { available, productId, size, now } = command.data;
      if (!Number.isInteger(available) || available < 0)
        throw new ValidationError('Stock must be a whole number of at least 0');
      if (state.exists && state.available === available) return [];
      return [{ type: 'StockLevelSet', data: { productId, size, available, at: now.toISOString() } }];
    }
    default: {
      const never: never = command.type;
      throw new Error(`Unknown command ${String(never)}`);
    }
  }
}
