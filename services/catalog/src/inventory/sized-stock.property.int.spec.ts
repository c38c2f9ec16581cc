import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReserveLine, ReservedLine } from '@shop/shared/contracts/inventory';
import { findProduct } from '../read-models/products/products-queries.ts';
import { startCatalogTestHost, type CatalogTestHost } from '../testing/catalog-test-host.ts';
import { createRng } from '@shop/test-support/prng';
import { waitUntil } from '@shop/test-support/wait-until';

const SEED = Number(process.env.PROPERTY_SEED ?? 15_001);
const SIZES = ['S', 'M', 'L', 'XL'] as const;

let host: CatalogTestHost;
beforeAll(async () => {
  host = await startCatalogTestHost();
});
afterAll(() => host.stop());

describe('stock property: random products, random orders with and without sizes', () => {
  it(`never sells more than is stocked, in any size or in all (seed ${SEED})`, async () => {
    const rnd = createRng(SEED);
    const { catalog } = host;
    const ctx = host.infra.context;
    for (let round = 0; round < 30; round++) {
      // A product: some sizes (maybe none, maybe all at 0) and a general quantity the admin typed.
      const sizes = SIZES.filter(() => rnd.next() < 0.6).map((s) => [s, rnd.int(0, 4)] as [string, number]);
      const quantity = rnd.int(0, 6);
      const productId = await host.createProduct(`Prop ${round}`, { quantity, sizeQuantities: sizes });
      const bySize = sizes.reduce((n, [, q]) => n + q, 0) > 0;
      const stocked = bySize ? sizes.reduce((n, [, q]) => n + q, 0) : quantity;

      // Buyers race: lines with no size, an offered size or a size nobody offers; each pays or lapses.
      const orders = Array.from({ length: rnd.int(6, 16) }, (_, i) => {
        const lines: ReserveLine[] = Array.from({ length: rnd.int(1, 2) }, () => ({
          productId,
          size: rnd.pick<string | null>([null, null, 'XXL', ...sizes.map(([s]) => s)]),
          color: null,
          quantity: rnd.int(1, 3),
        }));
        return { id: `r${round}-${i}`, lines, pays: rnd.next() < 0.7 };
      });
      const outcomes = await Promise.all(
        orders.map(async (o) => {
          const r = await catalog.inventory.reserve(o.id, o.lines);
          if (!r.ok) return { sold: [] as ReservedLine[] };
          if (o.pays) {
            await catalog.inventory.commit(o.id);
            return { sold: r.lines };
          }
          await catalog.inventory.release(o.id);
          return { sold: [] as ReservedLine[] };
        }),
      );
      const sold = outcomes.flatMap((o) => o.sold);
      const soldUnits = sold.reduce((n, l) => n + l.quantity, 0);
      const context = `round ${round}: sizes ${JSON.stringify(sizes)}, quantity ${quantity}, sold ${JSON.stringify(
        sold.map((l) => [l.size, l.stockSize, l.quantity]),
      )}`;
      expect(soldUnits, context).toBeLessThanOrEqual(stocked);
      for (const [size, n] of sizes) {
        const fromSize = sold.filter((l) => l.stockSize === size).reduce((t, l) => t + l.quantity, 0);
        expect(fromSize, context).toBeLessThanOrEqual(bySize ? n : 0);
      }
      if (bySize)
        expect(
          sold.filter((l) => l.stockSize === null),
          context,
        ).toEqual([]);
      // What the shop shows afterwards is exactly what is left: nothing lost, nothing made up.
      await waitUntil(
        async () => (await findProduct(ctx.pool, productId))?.quantity === stocked - soldUnits,
        `the product to show ${stocked - soldUnits} left (${context})`,
      );
      const after = (await findProduct(ctx.pool, productId))!;
      expect(
        Object.values(after.sizeQuantities).every((n) => n >= 0),
        `${context}: ${JSON.stringify(after)}`,
      ).toBe(true);
    }
  });
});
