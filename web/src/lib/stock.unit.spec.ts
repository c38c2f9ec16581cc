import { describe, expect, it } from 'vitest';
import { availableStock, isOutOfStock } from './stock';

describe('isOutOfStock', () => {
  it('is out of stock when quantity is at most 0 and no size has stock', () => {
    expect(isOutOfStock({ quantity: 0, sizeQuantities: {} })).toBe(true);
    expect(isOutOfStock({ quantity: -2, sizeQuantities: { S: 0, M: 0 } })).toBe(true);
  });

  it('is in stock when the quantity is above 0', () => {
    expect(isOutOfStock({ quantity: 1, sizeQuantities: { S: 0 } })).toBe(false);
  });

  it('is in stock when any size has stock, whatever the quantity says', () => {
    expect(isOutOfStock({ quantity: 0, sizeQuantities: { S: 0, M: 3 } })).toBe(false);
  });
});

describe('availableStock', () => {
  const perSize = { quantity: 0, sizeQuantities: { S: 0, M: 3, L: 5 } };

  it("is the chosen size's stock when stock is kept per size", () => {
    expect(availableStock(perSize, 'M')).toBe(3);
    expect(availableStock(perSize, 'S')).toBe(0);
    expect(availableStock(perSize, 'XXL')).toBe(0);
  });

  it('is the larger of quantity and the size total when no size is chosen', () => {
    expect(availableStock(perSize, null)).toBe(8);
  });

  it('is the product quantity when no size has stock', () => {
    expect(availableStock({ quantity: 4, sizeQuantities: { S: 0 } }, 'S')).toBe(4);
    expect(availableStock({ quantity: -1, sizeQuantities: {} }, null)).toBe(0);
  });
});
