import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productsProjection } from '../../services/catalog/src/read-models/products/products-projection.ts';
import { PostgresEventStore } from '../../services/shared/src/eventstore/postgres-event-store.ts';
import { replayProjections } from '../../services/shared/src/replay/projection-replay.ts';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import { waitUntil } from '@shop/test-support/wait-until';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db?.drop());

/**
 * Imagined history: ProductCreated v1 carried `price` in rupees (a decimal) and `sizes` as a comma list; v2
 * (what the products projection reads today) has `pricePaise` and `sizeLabels`. A v1 event still in the
 * log must replay into today's projection through its upcaster.
 */
const upcastProductCreated = (e: { type: string; schemaVersion: number; data: unknown }) => {
  const { price, sizes, ...rest } = e.data as { price: number; sizes: string } & Record<string, unknown>;
  return {
    type: e.type,
    schemaVersion: 2,
    data: { ...rest, pricePaise: Math.round(price * 100), sizeLabels: sizes ? sizes.split(',') : [] },
  };
};

describe('replay of an event stored at an older schema version', () => {
  it('goes through the upcaster into today’s products projection', async () => {
    const v1 = {
      productId: 'legacy-kurta',
      name: 'Legacy Kurta',
      price: 1499.5,
      sizes: 'S,M,L',
      description: 'Stored before prices were in paise',
      category: 'Men',
      size: '',
      color: 'Indigo',
      brand: 'Kapda',
      material: 'Cotton',
      image: '',
      createdAt: '2024-01-15T10:00:00.000Z',
    };
    // As an old release wrote it: schema_version 1, the v1 shape.
    await db.pool.query(
      `INSERT INTO catalog.events (stream_id, stream_version, event_id, type, schema_version, data, metadata)
       VALUES ('product-legacy-kurta', 1, gen_random_uuid(), 'ProductCreated', 1, $1, $2)`,
      [JSON.stringify(v1), JSON.stringify({ occurredAt: v1.createdAt, actor: 'admin' })],
    );
    const store = new PostgresEventStore(db.pool, 'catalog');
    store.registerSchemaVersion('ProductCreated', 2, upcastProductCreated);
    // Today's events of the same stream are read as they are.
    await store.append('stock-legacy-kurta:M', 0, [
      {
        type: 'StockLevelSet',
        data: { productId: 'legacy-kurta', size: 'M', available: 7, at: '2024-01-15T10:01:00.000Z' },
      },
    ]);

    // Replay reads in commit-safe order (as the live subscriptions do): transaction ids are server-wide, so
    // a transaction open elsewhere on the server holds newer events back until it ends.
    await waitUntil(
      async () =>
        (
          await db.pool.query(
            'SELECT count(*)::int AS n FROM catalog.events WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())',
          )
        ).rows[0].n === 2,
      'the events to be readable in commit-safe order',
      60_000,
    );
    const [report] = await replayProjections({
      pool: db.pool,
      targets: [{ consumer: productsProjection(), tables: ['catalog.products', 'catalog.stock_levels'] }],
      stores: [store],
    });
    expect(report).toMatchObject({ projection: 'catalog.products', events: 2 });
    const { rows } = await db.pool.query(
      'SELECT id, name, price_paise, size_labels, quantity FROM catalog.products WHERE id = $1',
      ['legacy-kurta'],
    );
    expect(rows).toEqual([
      { id: 'legacy-kurta', name: 'Legacy Kurta', price_paise: 149950n, size_labels: ['S', 'M', 'L'], quantity: 7 },
    ]);
    // The stored event is left as it was written: upcasting happens on read.
    const stored = await db.pool.query(`SELECT schema_version, data->>'price' AS price FROM catalog.events LIMIT 1`);
    expect(stored.rows[0]).toEqual({ schema_version: 1, price: '1499.5' });
  });
});
