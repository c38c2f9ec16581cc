import type { EventConsumer } from '@shop/shared/bus/types';
import type { CollectionEvent } from '../../collection/events.ts';
import type { ProductDeleted } from '../../product/events.ts';

export const COLLECTIONS_PROJECTION = 'catalog.collections';

const DETAIL_COLUMNS: Record<string, string> = { name: 'name', description: 'description', image: 'image' };

/**
 * catalog.collections and catalog.collection_products: the collections reads. Product names and listing
 * are joined in at query time, so this projection never depends on the products projection having seen
 * a product first (in Kafka mode streams arrive in any order relative to each other).
 */
export function collectionsProjection(): EventConsumer {
  return {
    name: COLLECTIONS_PROJECTION,
    schema: 'catalog',
    sources: ['catalog'],
    eventTypes: [
      'CollectionCreated',
      'CollectionDetailsChanged',
      'CollectionDeleted',
      'ProductAddedToCollection',
      'ProductRemovedFromCollection',
      'ProductDeleted',
    ],
    async handle(event, tx) {
      const e = { type: event.type, data: event.data } as CollectionEvent | ProductDeleted;
      switch (e.type) {
        case 'CollectionCreated': {
          const d = e.data;
          await tx.query(
            `INSERT INTO catalog.collections (id, name, description, image, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (id) DO NOTHING`,
            [d.collectionId, d.name, d.description, d.image, d.createdAt],
          );
          return;
        }
        case 'CollectionDetailsChanged': {
          const { collectionId, changedAt, ...changes } = e.data;
          const entries = Object.entries(changes).filter(([k]) => k in DETAIL_COLUMNS);
          const sets = entries.map(([k], i) => `${DETAIL_COLUMNS[k]} = $${i + 3}`);
          await tx.query(`UPDATE catalog.collections SET ${[...sets, 'updated_at = $2'].join(', ')} WHERE id = $1`, [
            collectionId,
            changedAt,
            ...entries.map(([, v]) => v),
          ]);
          return;
        }
        case 'CollectionDeleted':
          await tx.query(`DELETE FROM catalog.collection_products WHERE collection_id = $1`, [e.data.collectionId]);
          await tx.query(`DELETE FROM catalog.collections WHERE id = $1`, [e.data.collectionId]);
          return;
        case 'ProductAddedToCollection':
          // The stream version orders a collection's products as the admin added them. A product already
          // deleted (its event seen first) stays out.
          await tx.query(
            `INSERT INTO catalog.collection_products (collection_id, product_id, position)
             SELECT $1, $2, $3 WHERE NOT EXISTS (SELECT 1 FROM catalog.collection_deleted_products WHERE product_id = $2)
             ON CONFLICT (collection_id, product_id) DO NOTHING`,
            [e.data.collectionId, e.data.productId, event.streamVersion],
          );
          await tx.query(`UPDATE catalog.collections SET updated_at = greatest(updated_at, $2) WHERE id = $1`, [
            e.data.collectionId,
            e.data.at,
          ]);
          return;
        case 'ProductRemovedFromCollection':
          await tx.query(`DELETE FROM catalog.collection_products WHERE collection_id = $1 AND product_id = $2`, [
            e.data.collectionId,
            e.data.productId,
          ]);
          await tx.query(`UPDATE catalog.collections SET updated_at = greatest(updated_at, $2) WHERE id = $1`, [
            e.data.collectionId,
            e.data.at,
          ]);
          return;
        case 'ProductDeleted':
          // A deleted product leaves every collection, now and for any late-arriving add.
          await tx.query(
            `INSERT INTO catalog.collection_deleted_products (product_id) VALUES ($1) ON CONFLICT DO NOTHING`,
            [e.data.productId],
          );
          await tx.query(`DELETE FROM catalog.collection_products WHERE product_id = $1`, [e.data.productId]);
          return;
      }
    },
  };
}
