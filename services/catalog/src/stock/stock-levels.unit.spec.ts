import { describe, expect, it } from 'vitest';
import { allocateAcrossSizes } from '../inventory/inventory.ts';
import { stockLevelsFor } from './stock-levels.ts';

describe('stockLevelsFor: one truth of units per product', () => {
  it('a product with units in its sizes is sold by size: the general stock is off sale, whatever quantity says', () => {
    expect(
      stockLevelsFor(
        {
          quantity: 3,
          sizeQuantities: [
            ['S', 1],
            ['M', 2],
          ],
        },
        [],
        false,
      ),
    ).toEqual([
      [null, 0, false],
      ['S', 1, true],
      ['M', 2, true],
    ]);
  });

  it('a product whose sizes hold nothing is sold from its quantity, its sizes off sale', () => {
    expect(
      stockLevelsFor(
        {
          quantity: 10,
          sizeQuantities: [
            ['S', 0],
            ['M', 0],
          ],
        },
        [],
        false,
      ),
    ).toEqual([
      [null, 10, true],
      ['S', 0, false],
      ['M', 0, false],
    ]);
  });

  it('sizes dropped from the map go off sale, so their units cannot be sold from a stream nobody shows', () => {
    expect(stockLevelsFor({ sizeQuantities: [['L', 4]] }, ['S', 'L', 'M'], false)).toEqual([
      [null, 0, false],
      ['L', 4, true],
      ['S', 0, false],
      ['M', 0, false],
    ]);
  });

  it('a quantity alone sets the general stock, but is refused for a product stocked by size', () => {
    expect(stockLevelsFor({ quantity: 7 }, ['S'], false)).toEqual([[null, 7, true]]);
    expect(() => stockLevelsFor({ quantity: 7 }, ['S'], true)).toThrow(/stocked by size/);
    expect(stockLevelsFor({}, ['S'], true)).toEqual([]);
  });
});

describe('allocateAcrossSizes: a line with no size on a product sold by size', () => {
  it('takes from the largest sizes first and never more than they hold', () => {
    expect(
      allocateAcrossSizes(
        [
          ['S', 1],
          ['M', 2],
          ['L', 0],
        ],
        3,
      ),
    ).toEqual([
      ['M', 2],
      ['S', 1],
    ]);
    expect(allocateAcrossSizes([['S', 1]], 1)).toEqual([['S', 1]]);
    expect(
      allocateAcrossSizes(
        [
          ['S', 1],
          ['M', 2],
        ],
        4,
      ),
    ).toBeNull();
  });
});
