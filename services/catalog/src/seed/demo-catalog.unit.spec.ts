import { describe, expect, it } from 'vitest';
import { DEMO_CATALOG } from './demo-catalog.ts';

describe('the demo catalog', () => {
  it('keeps its 36 products, each with sizes of its own kind (never the generic XS to XXL)', () => {
    expect(DEMO_CATALOG).toHaveLength(36);
    for (const product of DEMO_CATALOG) {
      const labels = product.sizes.map(([label]) => label);
      expect(labels.length, `${product.name} has a size map`).toBeGreaterThan(0);
      if (product.shape === 'saree') expect(labels, product.name).toEqual(['Free Size']);
      else if (product.category === 'Kids')
        for (const label of labels) expect(label, product.name).toMatch(/^\d+-\d+(Y|M)$/);
      else for (const label of labels) expect(['S', 'M', 'L', 'XL'], product.name).toContain(label);
    }
  });
});
