import { ConflictError } from '@shop/shared/errors/errors';
import { StreamVersionConflictError, type PostgresEventStore } from '@shop/shared/eventstore/postgres-event-store';
import { rupeesToPaise } from '@shop/shared/money/money';
import type { Catalog, Written } from '../product/catalog.ts';
import type { ImageStore } from '../uploads/images.ts';
import { DEMO_CATALOG } from './demo-catalog.ts';
import { garmentSvg } from './garment-svg.ts';

const SEED_STREAM = 'catalog-demo-seed';
export const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/(^-|-$)/g, '');

/** The stable id of the demo product at `index` in DEMO_CATALOG: demo-01 ... demo-36. */
export const demoProductId = (index: number) => `demo-${String(index + 1).padStart(2, '0')}`;
/** Where a demo product's picture is served (written by seedDemoCatalog on every start). */
export const demoImagePath = (name: string) => `/uploads/seed/${slug(name)}.svg`;

/**
 * Seeds the demo catalog the first time the shop starts (a marker event in its own stream makes this
 * happen once, even with several processes starting together). Returns the number of products created.
 */
export async function seedDemoCatalog(
  store: PostgresEventStore,
  catalog: Catalog,
  images: ImageStore,
  waitForProjection: (written: Written) => Promise<void>,
): Promise<number> {
  // Images are files, not events: write them every start so a wiped uploads folder heals itself.
  const paths = new Map<string, string>();
  for (const p of DEMO_CATALOG) {
    paths.set(
      p.name,
      await images.saveOwn(
        `seed/${slug(p.name)}.svg`,
        garmentSvg({ shape: p.shape, fill: p.hex, label: p.name, background: '#f7f3ee' }),
      ),
    );
  }
  if ((await store.readStream(SEED_STREAM)).length > 0) return 0;
  // Resumable: a start that died half-way finishes on the next one; a product that exists is skipped.
  let n = 0;
  const pending: Written = [];
  for (const [i, p] of DEMO_CATALOG.entries()) {
    // Stable ids keep links and tests readable: demo-01 ... demo-36.
    const productId = demoProductId(i);
    if ((await catalog.productState(productId)).status !== 'none') continue;
    try {
      const { written } = await catalog.createProduct(
        {
          name: p.name,
          pricePaise: rupeesToPaise(p.price),
          description: p.description,
          category: p.category,
          size: p.sizes.map(([s]) => s).join(', '),
          color: p.color,
          brand: p.brand,
          material: p.material,
          image: paths.get(p.name)!,
        },
        { quantity: p.quantity, sizeQuantities: p.sizes },
        { productId, actor: 'seed' },
      );
      if (p.delisted) written.push(...(await catalog.setListing(productId, true, 'seed')));
      pending.push(...written);
      n += 1;
    } catch (err) {
      if (!(err instanceof ConflictError)) throw err; // another process created it first
    }
  }
  // The shop reports ready only once the product list shows the whole catalog.
  await waitForProjection(pending);
  try {
    await store.append(SEED_STREAM, 'no_stream', [
      { type: 'DemoCatalogSeeded', data: { products: DEMO_CATALOG.length } },
    ]);
  } catch (err) {
    if (!(err instanceof StreamVersionConflictError)) throw err;
  }
  return n;
}
