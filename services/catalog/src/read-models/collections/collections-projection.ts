import { changedColumns } from '@shop/shared/bus/projection';
import { defineReadModel, readModelConsumer, type RowsOf } from '@shop/shared/bus/projection-read-model';
import { table } from '@shop/shared/bus/projection-rows';
import type { EventConsumer } from '@shop/shared/bus/types';
import { greatestTime } from '@shop/shared/replay/fold';
import type { CollectionEvent } from '../../collection/events.ts';
import type { ProductDeleted } from '../../product/events.ts';

export const COLLECTIONS_PROJECTION = 'catalog.collections';

/** CollectionDetailsChanged: its fields' columns. */
const DETAIL_COLUMNS: Record<string, string> = { name: 'name', description: 'description', image: 'image' };

const tables = {
  collections: table('catalog.collections', {
    key: ['id'],
    columns: ['id', 'name', 'description', 'image', 'created_at', 'updated_at'],
  }),
  members: table('catalog.collection_products', {
    key: ['collection_id', 'product_id'],
    columns: ['collection_id', 'product_id', 'position'],
    lookup: { column: 'product_id' },
  }),
  deleted: table('catalog.collection_deleted_products', { key: ['product_id'], columns: ['product_id'] }),
};

/** A change of the collection's products moves its updated_at forward, never back. */
function touchCollection({ collections }: RowsOf<typeof tables>, collectionId: string, at: string): void {
  const row = collections.get(collectionId);
  if (row) collections.update(collectionId, { updated_at: greatestTime(row.updated_at as string, at) });
}

/**
 * catalog.collections and catalog.collection_products: the collections reads. Product names and listing
 * are joined in at query time, so this projection never depends on the products projection having seen
 * a product first (in Kafka mode streams arrive in any order relative to each other).
 */
export const collectionsReadModel = defineReadModel<CollectionEvent | ProductDeleted, typeof tables>({
  name: COLLECTIONS_PROJECTION,
  schema: 'catalog',
  sources: ['catalog'],
  tables,
  evolve: {
    CollectionCreated(d, { collections }) {
      collections.insert({
        id: d.collectionId,
        name: d.name,
        description: d.description,
        image: d.image,
        created_at: d.createdAt,
        updated_at: d.createdAt,
      });
    },
    CollectionDetailsChanged({ collectionId, changedAt, ...changes }, { collections }) {
      const { columns, values } = changedColumns(changes, DETAIL_COLUMNS);
      collections.update(collectionId, {
        ...Object.fromEntries(columns.map((c, i) => [c, values[i]])),
        updated_at: changedAt,
      });
    },
    CollectionDeleted(d, { collections, members }) {
      members.deleteRowsOf(d.collectionId);
      collections.delete(d.collectionId);
    },
    ProductAddedToCollection(d, rows, event) {
      // The stream version orders a collection's products as the admin added them. A product already
      // deleted (its event seen first) stays out.
      if (!rows.deleted.has(d.productId))
        rows.members.insert({ collection_id: d.collectionId, product_id: d.productId, position: event.streamVersion });
      touchCollection(rows, d.collectionId, d.at);
    },
    ProductRemovedFromCollection(d, rows) {
      rows.members.delete([d.collectionId, d.productId]);
      touchCollection(rows, d.collectionId, d.at);
    },
    ProductDeleted(d, { members, deleted }) {
      // A deleted product leaves every collection, now and for any late-arriving add.
      deleted.insert({ product_id: d.productId });
      for (const row of members.rowsWhere(d.productId)) members.delete([row.collection_id, row.product_id]);
    },
  },
});

export function collectionsProjection(): EventConsumer {
  return readModelConsumer(collectionsReadModel);
}
