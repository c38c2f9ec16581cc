import { ConflictError, NotFoundError } from '@shop/shared/errors/errors';
import type { ProductDetails, ProductEvent } from './events.ts';

export type ProductState =
  { status: 'none' } | { status: 'active' | 'delisted' | 'deleted'; productId: string; details: ProductDetails };

export type ProductCommand =
  | { type: 'CreateProduct'; data: { productId: string; details: ProductDetails; now: Date } }
  | { type: 'ChangeProductDetails'; data: { changes: Partial<ProductDetails>; now: Date } }
  | { type: 'SetListing'; data: { isDelisted: boolean; now: Date } }
  | { type: 'DeleteProduct'; data: { now: Date } };

export const initialProductState = (): ProductState => ({ status: 'none' });

export function evolveProduct(state: ProductState, event: ProductEvent): ProductState {
  switch (event.type) {
    case 'ProductCreated': {
      const { productId, createdAt: _c, ...details } = event.data;
      return { status: 'active', productId, details };
    }
    case 'ProductDetailsChanged': {
      if (state.status === 'none') return state;
      const { productId: _p, changedAt: _c, ...changes } = event.data;
      return { ...state, details: { ...state.details, ...changes } };
    }
    case 'ProductDelisted':
      return state.status === 'none' ? state : { ...state, status: 'delisted' };
    case 'ProductRelisted':
      return state.status === 'none' ? state : { ...state, status: 'active' };
    case 'ProductDeleted':
      return state.status === 'none' ? state : { ...state, status: 'deleted' };
  }
}

const live = (state: ProductState) => {
  if (state.status === 'none' || state.status === 'deleted') throw new NotFoundError('Product not found');
  return state;
};

export function decideProduct(command: ProductCommand, state: ProductState): ProductEvent[] {
  switch (command.type) {
    case 'CreateProduct':
      if (state.status !== 'none') throw new ConflictError('Product already exists');
      return [
        {
          type: 'ProductCreated',
          data: {
            productId: command.data.productId,
            ...command.data.details,
            createdAt: command.data.now.toISOString(),
          },
        },
      ];
    case 'ChangeProductDetails': {
      const s = live(state);
      // Record only what actually changes, so the log reads as what the admin did.
      const changes = Object.fromEntries(
        Object.entries(command.data.changes).filter(
          ([k, v]) => v !== undefined && JSON.stringify(v) !== JSON.stringify(s.details[k as keyof ProductDetails]),
        ),
      ) as Partial<ProductDetails>;
      if (Object.keys(changes).length === 0) return [];
      return [
        {
          type: 'ProductDetailsChanged',
          data: { productId: s.productId, ...changes, changedAt: command.data.now.toISOString() },
        },
      ];
    }
    case 'SetListing': {
      const s = live(state);
      const at = command.data.now.toISOString();
      if (command.data.isDelisted)
        return s.status === 'delisted' ? [] : [{ type: 'ProductDelisted', data: { productId: s.productId, at } }];
      return s.status === 'active' ? [] : [{ type: 'ProductRelisted', data: { productId: s.productId, at } }];
    }
    case 'DeleteProduct': {
      const s = live(state);
      return [{ type: 'ProductDeleted', data: { productId: s.productId, at: command.data.now.toISOString() } }];
    }
    default: {
      const never: never = command;
      throw new Error(`Unknown command ${JSON.stringify(never)}`);
    }
  }
}
