import { describe, expect, it } from 'vitest';
import { deciderSpec } from '@shop/test-support/given-when-then';
import { decideCollection, evolveCollection, initialCollectionState, type CollectionCommand } from './decider.ts';
import type { CollectionEvent } from './events.ts';

const now = new Date('2026-11-22T10:00:00Z');
const at = now.toISOString();
const created: CollectionEvent = {
  type: 'CollectionCreated',
  data: { collectionId: 'c1', name: 'Festive', description: 'Diwali picks', image: '', createdAt: at },
};
const added = (productId: string): CollectionEvent => ({
  type: 'ProductAddedToCollection',
  data: { collectionId: 'c1', productId, at },
});
const removed = (productId: string): CollectionEvent => ({
  type: 'ProductRemovedFromCollection',
  data: { collectionId: 'c1', productId, at },
});
const deleted: CollectionEvent = { type: 'CollectionDeleted', data: { collectionId: 'c1', at } };

const given = deciderSpec({ decide: decideCollection, evolve: evolveCollection, initialState: initialCollectionState });

const add = (productId: string, productExists = true): CollectionCommand => ({
  type: 'AddProductToCollection',
  data: { productId, productExists, now },
});
const remove = (productId: string): CollectionCommand => ({
  type: 'RemoveProductFromCollection',
  data: { productId, now },
});

describe('collection decider', () => {
  it('creates a collection once and needs a name', () => {
    const create = (name: string): CollectionCommand => ({
      type: 'CreateCollection',
      data: { collectionId: 'c1', details: { name, description: 'Diwali picks', image: '' }, now },
    });
    given([]).when(create('Festive')).then([created]);
    given([created]).when(create('Festive')).then('Collection already exists');
    given([]).when(create('  ')).then('Collection name is required');
  });

  it('records only the details that change', () => {
    const change = (changes: object): CollectionCommand => ({
      type: 'ChangeCollectionDetails',
      data: { changes, now },
    });
    given([created])
      .when(change({ name: 'Festive', image: '/uploads/a.png' }))
      .then([
        { type: 'CollectionDetailsChanged', data: { collectionId: 'c1', image: '/uploads/a.png', changedAt: at } },
      ]);
    given([created])
      .when(change({ name: 'Festive' }))
      .then([]);
    given([created])
      .when(change({ name: '' }))
      .then('Collection name is required');
    given([])
      .when(change({ name: 'X' }))
      .then('Collection not found');
    given([created, deleted])
      .when(change({ name: 'X' }))
      .then('Collection not found');
  });

  it('adds an existing product once; adding it again changes nothing; an unknown product is not found', () => {
    given([created])
      .when(add('p1'))
      .then([added('p1')]);
    given([created, added('p1')])
      .when(add('p1'))
      .then([]);
    given([created]).when(add('p9', false)).then('Product not found');
    given([]).when(add('p1')).then('Collection not found');
    expect(given([created, added('p1'), added('p2')]).state()).toMatchObject({ productIds: ['p1', 'p2'] });
  });

  it('removes a product it holds; removing one it does not hold changes nothing', () => {
    given([created, added('p1')])
      .when(remove('p1'))
      .then([removed('p1')]);
    given([created, added('p1'), removed('p1')])
      .when(remove('p1'))
      .then([]);
    given([created]).when(remove('p2')).then([]);
    // added again after a removal: it goes to the end
    expect(given([created, added('p1'), added('p2'), removed('p1'), added('p1')]).state()).toMatchObject({
      productIds: ['p2', 'p1'],
    });
  });

  it('deletes once; a deleted collection takes no more commands', () => {
    given([created]).when({ type: 'DeleteCollection', data: { now } }).then([deleted]);
    given([created, deleted]).when({ type: 'DeleteCollection', data: { now } }).then('Collection not found');
    given([created, deleted]).when(add('p1')).then('Collection not found');
  });
});
