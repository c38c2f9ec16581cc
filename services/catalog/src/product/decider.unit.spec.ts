import { describe, it } from 'vitest';
import { deciderSpec } from '@shop/test-support/given-when-then';
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
const given = deciderSpec({ decide: decideProduct, evolve: evolveProduct, initialState: initialProductState });
const created: ProductEvent = {
  type: 'ProductCreated',
  data: { productId: 'p1', ...details, createdAt: now.toISOString() },
};
const create = { type: 'CreateProduct', data: { productId: 'p1', details, now } } as const;

describe('product decider', () => {
  it('creates once', () => {
    given([]).when(create).then([created]);
    given([created]).when(create).then('already exists');
  });
  it('records only fields that change', () => {
    given([created])
      .when({ type: 'ChangeProductDetails', data: { changes: { name: 'Linen Kurta', pricePaise: 129900 }, now } })
      .then([
        { type: 'ProductDetailsChanged', data: { productId: 'p1', pricePaise: 129900, changedAt: now.toISOString() } },
      ]);
    given([created])
      .when({ type: 'ChangeProductDetails', data: { changes: { name: 'Linen Kurta' }, now } })
      .then([]);
  });
  it('delists and activates idempotently', () => {
    const delist = given([created])
      .when({ type: 'SetListing', data: { isDelisted: true, now } })
      .thenMatches([{ type: 'ProductDelisted' }]);
    given([created, ...delist])
      .when({ type: 'SetListing', data: { isDelisted: true, now } })
      .then([]);
    given([created, ...delist])
      .when({ type: 'SetListing', data: { isDelisted: false, now } })
      .thenMatches([{ type: 'ProductRelisted' }]);
  });
  it('refuses changes to a deleted product', () => {
    const del = given([created]).when({ type: 'DeleteProduct', data: { now } }).events();
    given([created, ...del])
      .when({ type: 'SetListing', data: { isDelisted: true, now } })
      .then('Product not found');
    given([]).when({ type: 'DeleteProduct', data: { now } }).then('Product not found');
  });
});
