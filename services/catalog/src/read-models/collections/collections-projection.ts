import { changedDetailsUpdate, defineProjection } from '@shop/shared/bus/projection';
import type { EventConsumer } from '@shop/shared/bus/types';
import type { CollectionEvent } from '../../collection/events.ts';
import type { ProductDeleted } from '../../product/events.ts';

export const COLLECTIONS_PROJECTION = 'catalog.collections';

/** CollectionDetailsChanged: its fields' columns. */
const updateDetails = changedDetailsUpdate('catalog.collections', {
  name: 'name',
  description: 'description',
  image: 'image',
});

/** A change of the collection's products moves its updated_at forward, never back. */
const touchCollection = (tx: Parameters<EventConsumer['handle']>[1], collectionId: string, at: string) =>
  tx.query(`UPDATE catalog.collections SET updated_at = greatest(updated_at, $2) WHERE id = $1`, [collectionId, at]);

/**
 * catalog.collections and catalog.collection_products: the collections reads. Product names and listing
 * are joined in at query time, so this projection never depends on the products projection having seen
 * a product first (in Kafka mode streams arrive in any order relative to each other).
 */
export function collectionsProjection(): EventConsumer {
  return defineProjection<CollectionEvent | ProductDeleted>({
    name: COLLECTIONS_PROJECTION,
    schema: 'catalog',
    sources: ['catalog'],
    on: {
      async CollectionCreated(d, tx) {
        await tx.query(
          `INSERT INTO catalog.collections (id, name, description, image, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (id) DO NOTHING`,
          [d.collectionId, d.name, d.description, d.image, d.createdAt],
        );
      },
      async CollectionDetailsChanged({ collectionId, changedAt, ...changes }, tx) {
        await updateDetails(tx, collectionId, changedAt, changes);
      },
      async CollectionDeleted(d, tx) {
        await tx.query(`DELETE FROM catalog.collection_products WHERE collection_id = $1`, [d.collectionId]);
        await tx.query(`DELETE FROM catalog.collections WHERE id = $1`, [d.collectionId]);
      },
      async ProductAddedToCollection(d, tx, event) {
        // The stream version orders a collection's products as the admin added them. A product already
        // deleted (its event seen first) stays out.
        await tx.query(
          `INSERT INTO catalog.collection_products (collection_id, product_id, position)
           SELECT $1, $2, $3 WHERE NOT EXISTS (SELECT 1 FROM catalog.collection_deleted_products WHERE product_id = $2)
           ON CONFLICT (collection_id, product_id) DO NOTHING`,
          [d.collectionId, d.productId, event.streamVersion],
        );
        await touchCollection(tx, d.collectionId, d.at);
      },
      async ProductRemovedFromCollection(d, tx) {
        await tx.query(`DELETE FROM catalog.collection_products WHERE collection_id = $1 AND product_id = $2`, [
          d.collectionId,
          d.productId,
        ]);
        await touchCollection(tx, d.collectionId, d.at);
      },
      async ProductDeleted(d, tx) {
        // A deleted product leaves every collection, now and for any late-arriving add.
        await tx.query(
          `INSERT INTO catalog.collection_deleted_products (product_id) VALUES ($1) ON CONFLICT DO NOTHING`,
          [d.productId],
        );
        await tx.query(`DELETE FROM catalog.collection_products WHERE product_id = $1`, [d.productId]);
      },
    },
  });
}
