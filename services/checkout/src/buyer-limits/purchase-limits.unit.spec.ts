import { describe, expect, it } from 'vitest';
import { checkCheckoutSize, checkUnitsPerProduct } from './purchase-limits.ts';

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

describe('what one unpaid checkout may hold in all (issue 27, defect 5: six wide orders held 373 of 605 units)', () => {
  const caps = { maxUnits: 20, maxProducts: 10 };
  const lines = (n: number, quantity: number) =>
    Array.from({ length: n }, (_, i) => ({ productId: `p${i}`, quantity }));
  it('allows up to the caps', () => {
    expect(() => checkCheckoutSize(lines(10, 2), caps)).not.toThrow();
  });
  it('refuses more units than the cap, all lines together', () => {
    expect(() => checkCheckoutSize(lines(3, 7), caps)).toThrow('At most 20 items per order: this order asks for 21');
  });
  it('refuses more distinct products than the cap', () => {
    expect(() => checkCheckoutSize(lines(11, 1), caps)).toThrow(
      'At most 10 different products per order: this order has 11',
    );
    // lines of one product in several sizes are one product
    expect(() =>
      checkCheckoutSize(
        Array.from({ length: 12 }, () => ({ productId: 'p', quantity: 1 })),
        caps,
      ),
    ).not.toThrow();
  });
});
