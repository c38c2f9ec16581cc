import { ConflictError, NotFoundError, ValidationError } from '@shop/shared/errors/errors';
import type { CollectionDetails, CollectionEvent } from './events.ts';

export type CollectionState =
  | { status: 'none' }
  | {
      status: 'live' | 'deleted';
      collectionId: string;
      details: CollectionDetails;
      /** Product ids in the order they were added. */
      productIds: string[];
    };

export type CollectionCommand =
  | { type: 'CreateCollection'; data: { collectionId: string; details: CollectionDetails; now: Date } }
  | { type: 'ChangeCollectionDetails'; data: { changes: Partial<CollectionDetails>; now: Date } }
  | { type: 'DeleteCollection'; data: { now: Date } }
  /** productExists: whether the catalog holds the product (read from its stream by the caller). */
  | { type: 'AddProductToCollection'; data: { productId: string; productExists: boolean; now: Date } }
  | { type: 'RemoveProductFromCollection'; data: { productId: string; now: Date } };

export const COLLECTION_NAME_REQUIRED = 'Collection name is required';

export const initialCollectionState = (): CollectionState => ({ status: 'none' });

export function evolveCollection(state: CollectionState, event: CollectionEvent): CollectionState {
  switch (event.type) {
    case 'CollectionCreated': {
      const { collectionId, createdAt: _c, ...details } = event.data;
      return { status: 'live', collectionId, details, productIds: [] };
    }
    case 'CollectionDetailsChanged': {
      if (state.status === 'none') return state;
      const { collectionId: _i, changedAt: _c, ...changes } = event.data;
      return { ...state, details: { ...state.details, ...changes } };
    }
    case 'CollectionDeleted':
      return state.status === 'none' ? state : { ...state, status: 'deleted' };
    case 'ProductAddedToCollection':
      if (state.status === 'none' || state.productIds.includes(event.data.productId)) return state;
      return { ...state, productIds: [...state.productIds, event.data.productId] };
    case 'ProductRemovedFromCollection':
      if (state.status === 'none') return state;
      return { ...state, productIds: state.productIds.filter((id) => id !== event.data.productId) };
  }
}

const live = (state: CollectionState) => {
  if (state.status !== 'live') throw new NotFoundError('Collection not found');
  return state;
};

export function decideCollection(command: CollectionCommand, state: CollectionState): CollectionEvent[] {
  switch (command.type) {
    case 'CreateCollection': {
      if (state.status !== 'none') throw new ConflictError('Collection already exists');
      const details = command.data.details;
      if (!details.name.trim()) throw new ValidationError(COLLECTION_NAME_REQUIRED);
      return [
        {
          type: 'CollectionCreated',
          data: { collectionId: command.data.collectionId, ...details, createdAt: command.data.now.toISOString() },
        },
      ];
    }
    case 'ChangeCollectionDetails': {
      const s = live(state);
      if (command.data.changes.name !== undefined && !command.data.changes.name.trim())
        throw new ValidationError(COLLECTION_NAME_REQUIRED);
      // Record only what actually changes, so the log reads as what the admin did.
      const changes = Object.fromEntries(
        Object.entries(command.data.changes).filter(
          ([k, v]) => v !== undefined && v !== s.details[k as keyof CollectionDetails],
        ),
      ) as Partial<CollectionDetails>;
      if (Object.keys(changes).length === 0) return [];
      return [
        {
          type: 'CollectionDetailsChanged',
          data: { collectionId: s.collectionId, ...changes, changedAt: command.data.now.toISOString() },
        },
      ];
    }
    case 'DeleteCollection': {
      const s = live(state);
      return [
        { type: 'CollectionDeleted', data: { collectionId: s.collectionId, at: command.data.now.toISOString() } },
      ];
    }
    case 'AddProductToCollection': {
      const s = live(state);
      const { productId, productExists, now } = command.data;
      if (!productExists) throw new NotFoundError('Product not found');
      // Adding a product that is already there changes nothing (a double click, a retried request).
      if (s.productIds.includes(productId)) return [];
      return [
        { type: 'ProductAddedToCollection', data: { collectionId: s.collectionId, productId, at: now.toISOString() } },
      ];
    }
    case 'RemoveProductFromCollection': {
      const s = live(state);
      const { productId, now } = command.data;
      if (!s.productIds.includes(productId)) return [];
      return [
        {
          type: 'ProductRemovedFromCollection',
          data: { collectionId: s.collectionId, productId, at: now.toISOString() },
        },
      ];
    }
    default: {
      const never: never = command;
      throw new Error(`Unknown command ${JSON.stringify(never)}`);
    }
  }
}
