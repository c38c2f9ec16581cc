import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../eventstore/types.ts';
import { decodeEvent, encodeEvent, EventDecodeError } from './event-codec.ts';

const event: RecordedEvent = {
  // Beyond Number.MAX_SAFE_INTEGER: must survive exactly.
  globalPosition: 9_007_199_254_740_993n,
  transactionId: 18_446_744_073_709_551_000n,
  streamId: 'order-SH-1001',
  streamVersion: 3,
  eventId: '0b6f5d9e-3c1a-4c2b-9a55-0d7f1e2a3b4c',
  type: 'DeliveryStatusChanged',
  schemaVersion: 2,
  data: { orderNumber: 'SH-1001', status: 'Shipped', lines: [{ sku: 'K-1', qty: 2 }] },
  metadata: { occurredAt: '2026-11-20T10:00:00.000Z', correlationId: 'c-1', actor: 'admin' },
  source: 'orders',
};

describe('event codec', () => {
  it('round-trips a recorded event, bigints included, as JSON with bigints as strings', () => {
    const text = encodeEvent(event);
    expect(JSON.parse(text)).toMatchObject({
      globalPosition: '9007199254740993',
      transactionId: '18446744073709551000',
    });
    expect(decodeEvent(Buffer.from(text))).toEqual(event);
  });

  it('rejects bytes that are not a recorded event, saying what is wrong', () => {
    expect(() => decodeEvent('not json')).toThrow(EventDecodeError);
    const bad = { ...JSON.parse(encodeEvent(event)), globalPosition: 12, streamVersion: 0 };
    expect(() => decodeEvent(JSON.stringify(bad))).toThrow(/globalPosition.*streamVersion/s);
  });
});
