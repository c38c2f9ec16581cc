import { describe, expect, it } from 'vitest';
import { deciderSpec } from '@shop/test-support/given-when-then';
import { decideHomeSection, evolveHomeSection, initialHomeSectionState, type HomeSectionCommand } from './decider.ts';
import type { HomeSectionDetails, HomeSectionEvent } from './events.ts';

const now = new Date('2026-11-22T10:00:00Z');
const at = now.toISOString();
const details: HomeSectionDetails = {
  name: 'Wedding edit',
  contentType: 'products',
  contentIds: ['p2', 'p1'],
  textStyle: 'default',
  textColor: '#000000',
  backgroundColor: '#FFFFFF',
  textSize: 'normal',
  displayOrder: 0,
  isActive: true,
};
const created: HomeSectionEvent = { type: 'HomeSectionCreated', data: { sectionId: 's1', ...details, createdAt: at } };
const deleted: HomeSectionEvent = { type: 'HomeSectionDeleted', data: { sectionId: 's1', at } };

const given = deciderSpec({
  decide: decideHomeSection,
  evolve: evolveHomeSection,
  initialState: initialHomeSectionState,
});

const create = (d: Partial<HomeSectionDetails>): HomeSectionCommand => ({
  type: 'CreateHomeSection',
  data: { sectionId: 's1', details: { ...details, ...d }, now },
});
const change = (changes: Partial<HomeSectionDetails>): HomeSectionCommand => ({
  type: 'ChangeHomeSection',
  data: { changes, now },
});

describe('home section decider', () => {
  it('creates a section once', () => {
    given([]).when(create({})).then([created]);
    given([created]).when(create({})).then('Section already exists');
  });

  it('refuses a section without a name or without items, and a negative display order', () => {
    given([])
      .when(create({ name: ' ' }))
      .then('Please fill name and select at least one item');
    given([])
      .when(create({ contentIds: [] }))
      .then('Please fill name and select at least one item');
    given([])
      .when(create({ displayOrder: -1 }))
      .then('0 or more');
    given([])
      .when(create({ displayOrder: 1.5 }))
      .then('0 or more');
    given([created])
      .when(change({ contentIds: [] }))
      .then('Please fill name and select at least one item');
  });

  it('records only the fields that change; fields left out keep their value', () => {
    given([created])
      .when(change({ name: 'Wedding edit', contentIds: ['p2', 'p1'], isActive: false }))
      .then([{ type: 'HomeSectionChanged', data: { sectionId: 's1', isActive: false, changedAt: at } }]);
    // a new order of the same items is a change
    given([created])
      .when(change({ contentIds: ['p1', 'p2'] }))
      .then([{ type: 'HomeSectionChanged', data: { sectionId: 's1', contentIds: ['p1', 'p2'], changedAt: at } }]);
    given([created])
      .when(change({ textColor: '#000000' }))
      .then([]);
    const after = given([
      created,
      { type: 'HomeSectionChanged', data: { sectionId: 's1', textSize: 'big', changedAt: at } },
    ]).state();
    expect(after).toMatchObject({ status: 'live', details: { ...details, textSize: 'big' } });
  });

  it('a new content type needs new items: the old ones belong to the other type', () => {
    given([created])
      .when(change({ contentType: 'collections' }))
      .then('Please fill name and select at least one item');
    given([created])
      .when(change({ contentType: 'collections', contentIds: ['c1'] }))
      .then([
        {
          type: 'HomeSectionChanged',
          data: { sectionId: 's1', contentType: 'collections', contentIds: ['c1'], changedAt: at },
        },
      ]);
  });

  it('deletes once; a deleted or unknown section is not found', () => {
    given([created]).when({ type: 'DeleteHomeSection', data: { now } }).then([deleted]);
    given([created, deleted]).when({ type: 'DeleteHomeSection', data: { now } }).then('Section not found');
    given([])
      .when(change({ name: 'X' }))
      .then('Section not found');
    given([created, deleted])
      .when(change({ name: 'X' }))
      .then('Section not found');
  });
});
