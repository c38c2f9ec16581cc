import { afterEach, describe, expect, it } from 'vitest';
import { buildProduct } from '@/testing/data';
import { readStoredCart, saveCart } from './cart-slice';

afterEach(() => window.localStorage.clear());

describe('the cart in browser storage (key cart)', () => {
  it('reads back what was saved', () => {
    const { quantity: _stock, size: _sizes, color: _colours, ...fields } = buildProduct({ sizeQuantities: { M: 3 } });
    const lines = [{ ...fields, quantity: 2, size: 'M', color: null }];
    saveCart(lines);
    expect(JSON.parse(window.localStorage.getItem('cart') ?? 'null')).toHaveLength(1);
    expect(readStoredCart()).toEqual(lines);
  });

  it('drops lines it cannot read and keeps the rest', () => {
    const line = { id: 5, name: 'Tee', price: 499, quantity: 1, size: null, color: 'Red' };
    window.localStorage.setItem(
      'cart',
      JSON.stringify([
        line,
        { ...line, quantity: 0 },
        { ...line, quantity: 1.5 },
        { ...line, size: 3 },
        { name: 'x' },
        7,
      ]),
    );
    expect(readStoredCart()).toEqual([expect.objectContaining({ id: 5, quantity: 1, size: null, color: 'Red' })]);
    window.localStorage.setItem('cart', '{"not":"a list"}');
    expect(readStoredCart()).toEqual([]);
  });
});
