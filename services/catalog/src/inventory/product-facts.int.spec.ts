import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startCatalogTestHost, type CatalogTestHost } from '../testing/catalog-test-host.ts';
import { waitUntil } from '@shop/test-support/wait-until';

let host: CatalogTestHost;
beforeAll(async () => {
  host = await startCatalogTestHost();
});
afterAll(() => host.stop());

// The facts' age backstop (a few seconds, measured with performance.now()) is held still, so a fresh price
// can only come from the products projection dropping the product's facts: the behaviour under test.
beforeEach(() => {
  const frozen = performance.now();
  vi.spyOn(performance, 'now').mockImplementation(() => frozen);
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** What the next checkout of one unit of the product is told: its price, or the refusal's title. */
async function nextReservation(productId: string): Promise<number | string> {
  const id = `facts-${randomUUID()}`;
  const r = await host.catalog.inventory.reserve(id, [{ productId, size: null, color: null, quantity: 1 }]);
  if (!r.ok) return r.title;
  await host.catalog.inventory.release(id);
  return r.lines[0]!.unitPricePaise;
}

/** The products read model's row for the product (null while absent). */
const row = async (productId: string) =>
  (
    await host.infra.pool.query<{ price_paise: string; is_delisted: boolean }>(
      'SELECT price_paise, is_delisted FROM catalog.products WHERE id = $1',
      [productId],
    )
  ).rows[0] ?? null;

/** The projection has caught up and the next reservations see `expected`, and keep seeing it. */
async function expectNextReservations(productId: string, expected: number | string) {
  await waitUntil(
    async () => (await nextReservation(productId)) === expected,
    `the next reservation to see ${expected}`,
  );
  for (let i = 0; i < 5; i++) expect(await nextReservation(productId)).toBe(expected);
}

describe("checkout's product facts (pricing in memory, dropped on product changes)", () => {
  it('prices the next reservation at a changed price once the projection has it, never the old one after', async () => {
    const productId = await host.createProduct('Facts Kurta', { quantity: 50, sizeQuantities: [] });
    expect(await nextReservation(productId)).toBe(10_000); // the facts are now in memory

    await host.catalog.catalog.updateProduct(productId, { pricePaise: 24_900 }, {});
    await waitUntil(
      async () => Number((await row(productId))?.price_paise) === 24_900,
      'the products projection to show 249',
    );
    await expectNextReservations(productId, 24_900);

    // A stock edit alone (no product change) leaves the price as it is.
    await host.catalog.catalog.updateProduct(productId, {}, { quantity: 40 });
    await expectNextReservations(productId, 24_900);
  });

  it('refuses a delisted product once the projection has it, and takes it again when relisted', async () => {
    const productId = await host.createProduct('Facts Saree', { quantity: 50, sizeQuantities: [] });
    expect(await nextReservation(productId)).toBe(10_000);

    await host.catalog.catalog.setListing(productId, true);
    await waitUntil(async () => (await row(productId))?.is_delisted === true, 'the products projection to delist it');
    await expectNextReservations(productId, 'Product not available');

    await host.catalog.catalog.setListing(productId, false);
    await waitUntil(async () => (await row(productId))?.is_delisted === false, 'the products projection to relist it');
    await expectNextReservations(productId, 10_000);
  });

  it('takes a product created after a reservation asked for its unknown id (a remembered miss)', async () => {
    const productId = randomUUID();
    // The miss is remembered (null facts) ...
    expect(await nextReservation(productId)).toBe('Product not available');
    expect(await nextReservation(productId)).toBe('Product not available');

    await host.catalog.catalog.createProduct(
      {
        name: 'Facts Lehenga',
        pricePaise: 31_500,
        description: '',
        category: 'Women',
        size: '',
        color: '',
        brand: '',
        material: '',
        image: '',
      },
      { quantity: 5, sizeQuantities: [] },
      { productId },
    );
    await waitUntil(async () => (await row(productId)) !== null, 'the products projection to show the new product');
    // ... until the product's creation drops it.
    await expectNextReservations(productId, 31_500);
  });
});
