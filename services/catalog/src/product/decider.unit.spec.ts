import { describe, expect, it } from 'vitest';
import type { ProductDetails, ProductEvent } from './events.ts';
import { decideProduct, evolveProduct, initialProductState } from './decider.ts';

const now = new Date('2026-11-22T10:00:00Z');
const details: ProductDetails = {
  name: 'Linen Kurta',
  pricePaise: 149900,
  description: 'Airy',
  category: 'Men',
  size: 'M',
  color: 'White',
  brand: 'Kapda',
  material: 'Linen',
  image: '/uploads/a.png',
  sizeLabels: ['S', 'M'],
};
const given = (events: ProductEvent[]) => events.reduce(evolveProduct, initialProductState());
const created: ProductEvent = {
  type: 'ProductCreated',
  data: { productId: 'p1', ...details, createdAt: now.toISOString() },
};

describe('product decider', () => {
  it('creates once', () => {
    expect(decideProduct({ type: 'CreateProduct', data: { productId: 'p1', details, now } }, given([]))).toEqual([
      created,
    ]);
    expect(() =>
      decideProduct({ type: 'CreateProduct', data: { productId: 'p1', details, now } }, given([created])),
    ).toThrow('already exists');
  });
  it('records only fields that change', () => {
    const events = decideProduct(
      { type: 'ChangeProductDetails', data: { changes: { name: 'Linen Kurta', pricePaise: 129900 }, now } },
      given([created]),
    );
    expect(events).toEqual([
      { type: 'ProductDetailsChanged', data: { productId: 'p1', pricePaise: 129900, changedAt: now.toISOString() } },
    ]);
    expect(
      decideProduct(
        { type: 'ChangeProductDetails', data: { changes: { name: 'Linen Kurta' }, now } },
        given([created]),
      ),
    ).toEqual([]);
  });
  it('delists and activates idempotently', () => {
    const delist = decideProduct({ type: 'SetListing', data: { isDelisted: true, now } }, given([created]));
    expect(delist.map((e) => e.type)).toEqual(['ProductDelisted']);
    expect(decideProduct({ type: 'SetListing', data: { isDelisted: true, now } }, given([created, ...delist]))).toEqual(
      [],
    );
    expect(
      decideProduct({ type: 'SetListing', data: { isDelisted: false, now } }, given([created, ...delist])).map(
        (e) => e.type,
      ),
    ).toEqual(['ProductRelisted']);
  });
  it('refuses changes to a deleted product', () => {
    const del = decideProduct({ type: 'DeleteProduct', data: { now } }, given([created]));
    expect(() =>
      decideProduct({ type: 'SetListing', data: { isDelisted: true, now } }, given([created, ...del])),
    ).toThrow('Product not found');
    expect(() => decideProduct({ type: 'DeleteProduct', data: { now } }, given([]))).toThrow('Product not found');
  });
});
