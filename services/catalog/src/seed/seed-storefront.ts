import { StreamVersionConflictError, type PostgresEventStore } from '@shop/shared/eventstore/postgres-event-store';
import { rupeesToPaise } from '@shop/shared/money/money';
import type { Written } from '../product/catalog.ts';
import type { Collections } from '../collection/collections.ts';
import type { HomeSections } from '../home-section/home-sections.ts';
import type { Homepage } from '../homepage/homepage.ts';
import { HOMEPAGE_STREAM } from '../homepage/events.ts';
import { DEMO_CATALOG } from './demo-catalog.ts';
import { demoImagePath, demoProductId } from './seed-catalog.ts';

const SEED_STREAM = 'catalog-demo-storefront-seed';
const ACTOR = 'seed';

/** The demo collections: name, description and their products (by demo product name; the first gives the image). */
export const DEMO_COLLECTIONS = [
  {
    name: 'Festive Season',
    description: 'Silks, zari and bright colour for weddings and festivals',
    products: ['Mustard Kanjivaram Saree', 'Floral Anarkali Kurta', 'Navy Nehru Jacket', 'Red Bandhani Dupatta Set'],
  },
  {
    name: 'Everyday Cotton',
    description: 'Breathable cottons and linens for Indian summers',
    products: ['Classic White Linen Shirt', 'Indigo Block-Print Kurta', 'Mustard Cotton Kurta', 'Mint Cotton T-Shirt'],
  },
  {
    name: 'Little Ones',
    description: 'Soft, easy kidswear, sized by age',
    products: ['Girls Silk Pavadai', 'Kids Dino T-Shirt', 'Girls Floral Frock', 'Baby Cotton Jhabla'],
  },
] as const;

/** The demo carousel: a slide per demo product named here, with its picture, price and sizes. */
export const DEMO_SLIDES = [
  { product: 'Mustard Kanjivaram Saree', height: '5 ft 6 in' },
  { product: 'Floral Anarkali Kurta', height: '5 ft 5 in' },
  { product: 'Navy Nehru Jacket', height: '6 ft' },
] as const;

/** The demo homepage section: the collections above, under the testimonials. */
export const DEMO_SECTION_NAME = 'Shop by Collection';

function demoProduct(name: string) {
  const index = DEMO_CATALOG.findIndex((p) => p.name === name);
  if (index < 0) throw new Error(`The demo storefront names '${name}', which the demo catalog does not have`);
  return { id: demoProductId(index), product: DEMO_CATALOG[index]! };
}

/**
 * Makes a fresh shop look like a store: the demo collections with their products, a homepage section of them
 * and the carousel, through the catalog's own commands (so a replay rebuilds them like any admin's work).
 * Once per shop: the marker event is written first, so of several processes starting together one seeds; a
 * start that dies half-way leaves a partial demo (an admin can finish or remove it) rather than a second copy.
 * Runs after seedDemoCatalog. Returns what it wrote, by read model, for the caller to wait on.
 */
export async function seedDemoStorefront(
  store: PostgresEventStore,
  services: { collections: Collections; sections: HomeSections; homepage: Homepage },
): Promise<{ collections: Written; sections: Written; homepage: Written }> {
  try {
    await store.append(SEED_STREAM, 'no_stream', [
      { type: 'DemoStorefrontSeeded', data: { collections: DEMO_COLLECTIONS.length, slides: DEMO_SLIDES.length } },
    ]);
  } catch (err) {
    // Seeded before, or by another process now.
    if (err instanceof StreamVersionConflictError) return { collections: [], sections: [], homepage: [] };
    throw err;
  }
  const collections: Written = [];
  const collectionIds: string[] = [];
  for (const demo of DEMO_COLLECTIONS) {
    const members = demo.products.map(demoProduct);
    const { collectionId, written: created } = await services.collections.create(
      { name: demo.name, description: demo.description, image: demoImagePath(members[0]!.product.name) },
      ACTOR,
    );
    collections.push(...created);
    for (const member of members)
      collections.push(...(await services.collections.addProduct(collectionId, member.id, ACTOR)));
    collectionIds.push(collectionId);
  }
  const { written: sections } = await services.sections.create(
    {
      name: DEMO_SECTION_NAME,
      contentType: 'collections',
      contentIds: collectionIds,
      textStyle: 'default',
      textColor: '#000000',
      backgroundColor: '#FFF8F0',
      textSize: 'normal',
      displayOrder: 0,
      isActive: true,
    },
    ACTOR,
  );
  const carousel = DEMO_SLIDES.map((slide) => {
    const { product } = demoProduct(slide.product);
    return {
      name: product.name,
      pricePaise: rupeesToPaise(product.price),
      image: demoImagePath(product.name),
      lining: product.material,
      size: product.sizes.map(([label]) => label).join(', '),
      height: slide.height,
    };
  });
  const version = await services.homepage.configure({ carousel }, ACTOR);
  return { collections, sections, homepage: version > 0 ? [{ streamId: HOMEPAGE_STREAM, version }] : [] };
}
