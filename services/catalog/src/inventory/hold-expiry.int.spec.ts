import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findProduct } from '../read-models/products/products-queries.ts';
import { startCatalogTestHost, type CatalogTestHost } from '../testing/catalog-test-host.ts';
import { waitUntil } from '@shop/test-support/wait-until';
import { holdBackstopMs } from './hold-expiry.ts';

const TTL_SECONDS = 600;

let host: CatalogTestHost;
beforeAll(async () => {
  host = await startCatalogTestHost({ RESERVATION_TTL_SECONDS: String(TTL_SECONDS) });
});
afterAll(() => host.stop());

/** The live holds the read model lists for a product, as `<size>:<hold id>`, sorted. */
const liveHolds = async (productId: string) =>
  (
    await host.infra.pool.query<{ h: string }>(
      `SELECT size || ':' || hold_id AS h FROM catalog.stock_holds WHERE product_id = $1 ORDER BY 1`,
      [productId],
    )
  ).rows.map((r) => r.h);
const quantity = async (productId: string) => (await findProduct(host.infra.pool, productId))!.quantity;

describe("the catalog's hold backstop", () => {
  it('gives back holds no checkout settled (a checkout that crashed before recording its order), never a sale', async () => {
    const { inventory } = host.catalog;
    const productId = await host.createProduct('Backstop Kurta', {
      quantity: 0,
      sizeQuantities: [
        ['S', 3],
        ['M', 2],
      ],
    });
    // An orphan (held, then its checkout died), a sale, and a hold its checkout released.
    const orphan = await inventory.reserve('orphan', [{ productId, size: null, color: null, quantity: 4 }]);
    const sold = await inventory.reserve('sold', [{ productId, size: 'M', color: null, quantity: 1 }]);
    expect(orphan.ok && sold.ok).toBe(true);
    if (!orphan.ok || !sold.ok) return;
    await inventory.commit('sold');
    // Only the orphan's two size holds stay listed once the read model has seen the sale's commit.
    await waitUntil(
      async () => JSON.stringify(await liveHolds(productId)) === JSON.stringify(['M:orphan#0', 'S:orphan#0']),
      "only the orphan's two size holds to be listed",
    );
    await waitUntil(async () => (await quantity(productId)) === 0, 'all 5 units to be held or sold');

    // Before the backstop nothing is released: checkout settles its own holds first.
    host.advanceClock(holdBackstopMs(TTL_SECONDS) - 5_000);
    expect(await inventory.releaseLapsedHolds()).toBe(0);

    host.advanceClock(10_000);
    expect(await inventory.releaseLapsedHolds()).toBe(2);
    await waitUntil(async () => (await quantity(productId)) === 4, 'the 4 orphaned units to be on sale again');
    expect((await findProduct(host.infra.pool, productId))!.sizeQuantities).toEqual({ S: 3, M: 1 });
    await waitUntil(async () => (await liveHolds(productId)).length === 0, 'no live holds to be listed');
    expect(await inventory.releaseLapsedHolds()).toBe(0);
  });
});
