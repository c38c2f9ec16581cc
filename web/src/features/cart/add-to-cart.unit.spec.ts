import { afterEach, describe, expect, it } from 'vitest';
import { makeStore } from '@/app/store';
import { buildProduct } from '@/testing/data';
import { addToCart, decideAddToCart } from './add-to-cart';
import { cartLineKey, cartLineRemoved, selectCartLineCount, type CartLine } from './cart-slice';

afterEach(() => window.localStorage.clear());

const line = (overrides: Partial<CartLine>): CartLine => {
  const { quantity: _stock, size: _size, color: _color, ...fields } = buildProduct();
  return { ...fields, quantity: 1, size: null, color: null, ...overrides };
};

describe('decideAddToCart', () => {
  it("refuses with 'out of stock' when nothing is available", () => {
    const product = buildProduct({ quantity: 0 });
    expect(decideAddToCart([], { product, size: null, color: null })).toEqual({ kind: 'out-of-stock' });
  });

  it('refuses a chosen size that has no stock', () => {
    const product = buildProduct({ quantity: 0, sizeQuantities: { S: 0, M: 2 } });
    expect(decideAddToCart([], { product, size: 'S', color: null }).kind).toBe('out-of-stock');
    expect(decideAddToCart([], { product, size: 'M', color: null }).kind).toBe('add');
  });

  it("refuses with 'not enough stock' when the line would exceed the stock", () => {
    const product = buildProduct({ quantity: 2 });
    const inCart = [line({ id: product.id, quantity: 2 })];
    expect(decideAddToCart(inCart, { product, size: null, color: null })).toEqual({
      kind: 'not-enough-stock',
      available: 2,
      requested: 3,
    });
  });

  it('counts only the same product, size and colour as the same line', () => {
    const product = buildProduct({ quantity: 2 });
    const otherColour = [line({ id: product.id, quantity: 2, color: 'Red' })];
    expect(decideAddToCart(otherColour, { product, size: null, color: 'Blue' }).kind).toBe('add');
  });
});

describe('addToCart', () => {
  it('adds a new line with quantity 1, then raises it by 1, keeping the cart in storage', () => {
    const store = makeStore({ cart: { lines: [], noticeLineKey: null } });
    const product = buildProduct({ quantity: 5 });

    expect(store.dispatch(addToCart({ product, size: 'M', color: 'Blue' }))).toBe(true);
    expect(store.dispatch(addToCart({ product, size: 'M', color: 'Blue' }))).toBe(true);
    expect(store.dispatch(addToCart({ product, size: 'L', color: 'Blue' }))).toBe(true);

    const { lines } = store.getState().cart;
    expect(lines.map((item) => [item.size, item.quantity])).toEqual([
      ['M', 2],
      ['L', 1],
    ]);
    expect(selectCartLineCount(store.getState())).toBe(2);
    expect(JSON.parse(window.localStorage.getItem('cart') ?? '[]')).toHaveLength(2);
    expect(store.getState().notifications.items.map((n) => n.title)).toEqual([
      'Added to cart',
      'Added to cart',
      'Added to cart',
    ]);
  });

  it("leaves the cart unchanged and shows 'Not enough stock' at the limit", () => {
    const store = makeStore({ cart: { lines: [], noticeLineKey: null } });
    const product = buildProduct({ quantity: 1 });

    store.dispatch(addToCart({ product, size: null, color: null }));
    const before = store.getState().cart.lines;
    expect(store.dispatch(addToCart({ product, size: null, color: null }))).toBe(false);

    expect(store.getState().cart.lines).toBe(before);
    expect(store.getState().notifications.items.at(-1)).toMatchObject({ type: 'error', title: 'Not enough stock' });
  });

  it("shows 'Out of stock' for a product with no stock", () => {
    const store = makeStore({ cart: { lines: [], noticeLineKey: null } });
    expect(store.dispatch(addToCart({ product: buildProduct({ quantity: 0 }), size: null, color: null }))).toBe(false);
    expect(store.getState().cart.lines).toHaveLength(0);
    expect(store.getState().notifications.items.at(-1)).toMatchObject({ type: 'error', title: 'Out of stock' });
  });

  it('removes a line by its combined key', () => {
    const store = makeStore({ cart: { lines: [], noticeLineKey: null } });
    const product = buildProduct({ quantity: 5 });
    store.dispatch(addToCart({ product, size: 'M', color: null }));
    store.dispatch(addToCart({ product, size: 'L', color: null }));

    store.dispatch(cartLineRemoved(cartLineKey({ id: product.id, size: 'M', color: null })));

    expect(store.getState().cart.lines.map((item) => item.size)).toEqual(['L']);
  });

  it('starts from the cart stored in the browser, dropping unreadable lines', () => {
    const stored = line({ name: 'Stored Kurta', quantity: 2 });
    window.localStorage.setItem('cart', JSON.stringify([stored, { nonsense: true }]));
    const store = makeStore();
    expect(store.getState().cart.lines).toEqual([stored]);
  });
});
