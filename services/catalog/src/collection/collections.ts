import { randomUUID } from 'node:crypto';
import { decideAndAppend } from '@shop/shared/eventstore/command';
import type { PostgresEventStore } from '@shop/shared/eventstore/postgres-event-store';
import type { Written } from '../product/catalog.ts';
import {
  decideCollection,
  evolveCollection,
  initialCollectionState,
  type CollectionCommand,
} from './decider.ts';
import { collectionStreamId, type CollectionDetails } from './events.ts';
import { evolveProduct, initialProductState, type ProductState } from '../product/decider.ts';
import { productStreamId, type ProductEvent } from '../product/events.ts';

const COLLECTION = { initialState: initialCollectionState, evolve: evolveCollection, decide: decideCollection };

/** Application service: collection commands against the catalog event store. */
export class Collections {
  constructor(
    private readonly store: PostgresEventStore,
    private readonly clock: () => Date,
  ) {}

  async create(details: CollectionDetails, actor?: string): Promise<{ collectionId: string; written: Written }> {
    const collectionId = randomUUID();
    const written = await this.run(
      collectionId,
      () => ({ type: 'CreateCollection', data: { collectionId, details, now: this.clock() } }),
      actor,
    );
    return { collectionId, written };
  }

  changeDetails(collectionId: string, changes: Partial<CollectionDetails>, actor?: string): Promise<Written> {
    return this.run(
      collectionId,
      () => ({ type: 'ChangeCollectionDetails', data: { changes, now: this.clock() } }),
      actor,
    );
  }

  remove(collectionId: string, actor?: string): Promise<Written> {
    return this.run(collectionId, () => ({ type: 'DeleteCollection', data: { now: this.clock() } }), actor);
  }

  /**
   * Adds a product the catalog holds (listed or delisted; its own stream says). A product deleted after
   * this check is dropped by the collections projection when it sees ProductDeleted, whatever the order.
   */
  addProduct(collectionId: string, productId: string, actor?: string): Promise<Written> {
    return this.run(
      collectionId,
      async () => {
        const product = await this.store.aggregate<ProductState, ProductEvent>(
          productStreamId(productId),
          evolveProduct,
          initialProductState(),
        );
        const productExists = product.state.status === 'active' || product.state.status === 'delisted';
        return { type: 'AddProductToCollection', data: { productId, productExists, now: this.clock() } };
      },
      actor,
    );
  }

  removeProduct(collectionId: string, productId: string, actor?: string): Promise<Written> {
    return this.run(
      collectionId,
      () => ({ type: 'RemoveProductFromCollection', data: { productId, now: this.clock() } }),
      actor,
    );
  }

  /** Read-decide-append on one collection stream, retried on a version conflict. */
  private async run(
    collectionId: string,
    command: () => CollectionCommand | Promise<CollectionCommand>,
    actor?: string,
  ): Promise<Written> {
    const streamId = collectionStreamId(collectionId);
    return [{ streamId, version: await decideAndAppend(this.store, streamId, COLLECTION, command, actor) }];
  }
}
