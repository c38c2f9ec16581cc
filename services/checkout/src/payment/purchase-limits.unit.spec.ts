import { describe, expect, it } from 'vitest';
import { checkUnitsPerProduct } from './purchase-limits.ts';

describe('units of one product per order (issue 15, defect 4: one guest held a whole product)', () => {
  it('refuses a line above the cap, naming the field and the product', () => {
    expect(() => checkUnitsPerProduct([{ productId: 'p1', quantity: 11 }], 10)).toThrow(
      'At most 10 units of one product per order: items[0].quantity asks for 11 of product p1',
    );
    expect(() => checkUnitsPerProduct([{ productId: 'p1', quantity: 10 }], 10)).not.toThrow();
  });

  it('sums the lines of one product across sizes: S 30 + M 30 is 60 units, not two lines of 30', () => {
    const lines = [
      { productId: 'p2', quantity: 1 },
      { productId: 'p1', quantity: 6 },
      { productId: 'p1', quantity: 5 },
    ];
    expect(() => checkUnitsPerProduct(lines, 10)).toThrow(
      'At most 10 units of one product per order, all sizes together: items[1].quantity + items[2].quantity ask for 11 of product p1',
    );
    expect(() =>
      checkUnitsPerProduct(
        [
          { productId: 'p1', quantity: 5 },
          { productId: 'p1', quantity: 5 },
          { productId: 'p2', quantity: 10 },
        ],
        10,
      ),
    ).not.toThrow();
  });

  it('carries one error per line of the product for forms', () => {
    try {
      checkUnitsPerProduct(
        [
          { productId: 'p1', quantity: 30 },
          { productId: 'p1', quantity: 30 },
        ],
        10,
      );
      expect.unreachable();
    } catch (err) {
      expect((err as { details: Array<{ path: string }> }).details.map((d) => d.path)).toEqual([
        'items.0.quantity',
        'items.1.quantity',
      ]);
    }
  });
});
