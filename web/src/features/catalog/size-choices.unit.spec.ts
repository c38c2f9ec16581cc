import { describe, expect, it } from 'vitest';
import { sizeChoices } from './size-choices';

const GENERIC = ['XS', 'S', 'M', 'L', 'XL', 'XXL'];

describe('sizeChoices', () => {
  it('offers the sizes kept per size, those at 0 disabled', () => {
    expect(sizeChoices({ quantity: 0, sizeQuantities: { S: 0, M: 2 } })).toEqual([
      { label: 'S', inStock: false },
      { label: 'M', inStock: true },
    ]);
  });

  it("offers a product's own sizes when every count is 0, not the generic XS to XXL", () => {
    // Sold out: its own sizes, all disabled.
    expect(sizeChoices({ quantity: 0, sizeQuantities: { 'Free Size': 0 } })).toEqual([
      { label: 'Free Size', inStock: false },
    ]);
    expect(sizeChoices({ quantity: 0, sizeQuantities: { '2-3Y': 0, '4-5Y': 0 } }).map((c) => c.label)).toEqual([
      '2-3Y',
      '4-5Y',
    ]);
    // Stock kept on the product, not per size: its own sizes, available while the product is.
    expect(sizeChoices({ quantity: 4, sizeQuantities: { '2-3Y': 0, '4-5Y': 0 } })).toEqual([
      { label: '2-3Y', inStock: true },
      { label: '4-5Y', inStock: true },
    ]);
  });

  it('offers the generic XS to XXL only without a size map, available by the product quantity', () => {
    expect(sizeChoices({ quantity: 3, sizeQuantities: {} })).toEqual(
      GENERIC.map((label) => ({ label, inStock: true })),
    );
    expect(sizeChoices({ quantity: 0, sizeQuantities: {} }).every((choice) => !choice.inStock)).toBe(true);
  });
});
