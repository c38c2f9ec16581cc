import { describe, expect, it } from 'vitest';
import {
  decideHomeSection,
  evolveHomeSection,
  initialHomeSectionState,
  type HomeSectionCommand,
  type HomeSectionState,
} from './decider.ts';
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

const given = (events: HomeSectionEvent[]): HomeSectionState =>
  events.reduce(evolveHomeSection, initialHomeSectionState());
const when = (command: HomeSectionCommand, history: HomeSectionEvent[]) => decideHomeSection(command, given(history));
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
    expect(when(create({}), [])).toEqual([created]);
    expect(() => when(create({}), [created])).toThrow('Section already exists');
  });

  it('refuses a section without a name or without items, and a negative display order', () => {
    expect(() => when(create({ name: ' ' }), [])).toThrow('Please fill name and select at least one item');
    expect(() => when(create({ contentIds: [] }), [])).toThrow('Please fill name and select at least one item');
    expect(() => when(create({ displayOrder: -1 }), [])).toThrow('0 or more');
    expect(() => when(create({ displayOrder: 1.5 }), [])).toThrow('0 or more');
    expect(() => when(change({ contentIds: [] }), [created])).toThrow('Please fill name and select at least one item');
  });

  it('records only the fields that change; fields left out keep their value', () => {
    expect(when(change({ name: 'Wedding edit', contentIds: ['p2', 'p1'], isActive: false }), [created])).toEqual([
      { type: 'HomeSectionChanged', data: { sectionId: 's1', isActive: false, changedAt: at } },
    ]);
    // a new order of the same items is a change
    expect(when(change({ contentIds: ['p1', 'p2'] }), [created])).toEqual([
      { type: 'HomeSectionChanged', data: { sectionId: 's1', contentIds: ['p1', 'p2'], changedAt: at } },
    ]);
    expect(when(change({ textColor: '#000000' }), [created])).toEqual([]);
    const after = given([
      created,
      { type: 'HomeSectionChanged', data: { sectionId: 's1', textSize: 'big', changedAt: at } },
    ]);
    expect(after).toMatchObject({ status: 'live', details: { ...details, textSize: 'big' } });
  });

  it('a new content type needs new items: the old ones belong to the other type', () => {
    expect(() => when(change({ contentType: 'collections' }), [created])).toThrow(
      'Please fill name and select at least one item',
    );
    expect(when(change({ contentType: 'collections', contentIds: ['c1'] }), [created])).toEqual([
      {
        type: 'HomeSectionChanged',
        data: { sectionId: 's1', contentType: 'collections', contentIds: ['c1'], changedAt: at },
      },
    ]);
  });

  it('deletes once; a deleted or unknown section is not found', () => {
    expect(when({ type: 'DeleteHomeSection', data: { now } }, [created])).toEqual([deleted]);
    expect(() => when({ type: 'DeleteHomeSection', data: { now } }, [created, deleted])).toThrow('Section not found');
    expect(() => when(change({ name: 'X' }), [])).toThrow('Section not found');
    expect(() => when(change({ name: 'X' }), [created, deleted])).toThrow('Section not found');
  });
});
