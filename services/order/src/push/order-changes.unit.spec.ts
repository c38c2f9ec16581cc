import { describe, expect, it } from 'vitest';
import { decodeOrderChanges, encodeOrderChanges } from './order-changes.ts';
import { sseFrame } from './order-push-hub.ts';

describe('order change announcements', () => {
  it('carries each changed order once, keeping its owner and a deletion', () => {
    const message = encodeOrderChanges([
      { orderNumber: 'ORD-100001', userId: 'u1', deleted: false },
      { orderNumber: 'ORD-100002', userId: null, deleted: false },
      { orderNumber: 'ORD-100001', userId: null, deleted: true },
    ]);
    expect(decodeOrderChanges(message)).toEqual([
      { orderNumber: 'ORD-100001', userId: 'u1', deleted: true },
      { orderNumber: 'ORD-100002', userId: null, deleted: false },
    ]);
  });
  it('ignores messages that are not announcements', () => {
    expect(decodeOrderChanges('not json')).toBeNull();
    expect(decodeOrderChanges('{"changes":[{"orderNumber":1}]}')).toBeNull();
  });
});

describe('SSE frames', () => {
  it('are one event line and one data line, whatever the data holds', () => {
    expect(sseFrame('order', { address: 'Flat 4\nMG Road' })).toBe(
      'event: order\ndata: {"address":"Flat 4\\nMG Road"}\n\n',
    );
  });
});
