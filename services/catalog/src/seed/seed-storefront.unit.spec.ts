import { describe, expect, it } from 'vitest';
import { DEMO_CATALOG } from './demo-catalog.ts';
import { DEMO_COLLECTIONS, DEMO_SLIDES } from './seed-storefront.ts';

describe('the demo storefront', () => {
  it('names only listed demo products with stock, so a fresh shop shows no dead link', () => {
    const names = [...DEMO_COLLECTIONS.flatMap((c) => c.products), ...DEMO_SLIDES.map((s) => s.product)];
    for (const name of names) {
      const product = DEMO_CATALOG.find((p) => p.name === name);
      expect(product, name).toBeDefined();
      expect(product!.delisted ?? false, `${name} is listed`).toBe(false);
      expect(product!.quantity + product!.sizes.reduce((sum, [, n]) => sum + n, 0), `${name} has stock`).toBeGreaterThan(0);
    }
    expect(DEMO_COLLECTIONS).toHaveLength(3);
  });
});
