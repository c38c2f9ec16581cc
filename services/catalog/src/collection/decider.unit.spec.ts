import { describe, expect, it } from 'vitest';
import {
  decideCollection,
  evolveCollection,
  initialCollectionState,
  type CollectionCommand,
  type CollectionState,
} from './decider.ts';
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

const given = (events: CollectionEvent[]): CollectionState => events.reduce(evolveCollection, initialCollectionState());
const when = (command: CollectionCommand, history: CollectionEvent[]) => decideCollection(command, given(history));
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
    expect(when(create('Festive'), [])).toEqual([created]);
    expect(() => when(create('Festive'), [created])).toThrow('Collection already exists');
    expect(() => when(create('  '), [])).toThrow('Collection name is required');
  });

  it('records only the details that change', () => {
    const change = (changes: object): CollectionCommand => ({
      type: 'ChangeCollectionDetails',
      data: { changes, now },
    });
    expect(when(change({ name: 'Festive', image: '/uploads/a.png' }), [created])).toEqual([
      { type: 'CollectionDetailsChanged', data: { collectionId: 'c1', image: '/uploads/a.png', changedAt: at } },
    ]);
    expect(when(change({ name: 'Festive' }), [created])).toEqual([]);
    expect(() => when(change({ name: '' }), [created])).toThrow('Collection name is required');
    expect(() => when(change({ name: 'X' }), [])).toThrow('Collection not found');
    expect(() => when(change({ name: 'X' }), [created, deleted])).toThrow('Collection not found');
  });

  it('adds an existing product once; adding it again changes nothing; an unknown product is not found', () => {
    expect(when(add('p1'), [created])).toEqual([added('p1')]);
    expect(when(add('p1'), [created, added('p1')])).toEqual([]);
    expect(() => when(add('p9', false), [created])).toThrow('Product not found');
    expect(() => when(add('p1'), [])).toThrow('Collection not found');
    expect(given([created, added('p1'), added('p2')])).toMatchObject({ productIds: ['p1', 'p2'] });
  });

  it('removes a product it holds; removing one it does not hold changes nothing', () => {
    expect(when(remove('p1'), [created, added('p1')])).toEqual([removed('p1')]);
    expect(when(remove('p1'), [created, added('p1'), removed('p1')])).toEqual([]);
    expect(when(remove('p2'), [created])).toEqual([]);
    // added again after a removal: it goes to the end
    expect(given([created, added('p1'), added('p2'), removed('p1'), added('p1')])).toMatchObject({
      productIds: ['p2', 'p1'],
    });
  });

  it('deletes once; a deleted collection takes no more commands', () => {
    expect(when({ type: 'DeleteCollection', data: { now } }, [created])).toEqual([deleted]);
    expect(() => when({ type: 'DeleteCollection', data: { now } }, [created, deleted])).toThrow('Collection not found');
    expect(() => when(add('p1'), [created, deleted])).toThrow('Collection not found');
  });
});
