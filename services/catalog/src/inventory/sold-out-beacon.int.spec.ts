import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { PubSub } from '@shop/shared/cache/types';
import { createLogger } from '@shop/shared/observability/logger';
import { testEventStore } from '@shop/test-support/test-event-store';
import type { StockCommand } from '../stock/decider.ts';
import { stockStreamId } from '../stock/events.ts';
import type { ProductFactsView } from './product-facts.ts';
import { SOLD_OUT_CHANNEL, SoldOutBeacon, type SoldOutNotice } from './sold-out-beacon.ts';
import { StockWriter } from './stock-writer.ts';

const testLog = testEventStore('catalog');

/**
 * The catalog's side of the gateway's sold-out answer: the hold that takes a stock's last unit flags it (with
 * the product's name and sizes), and whatever may put units back clears the flag: a release through the
 * writer is cleared before it is written, a stock level appended outside the writer as it is appended.
 */

/** Records what is published on the sold-out channel. */
class RecordingPubSub implements PubSub {
  readonly notices: SoldOutNotice[] = [];
  publish(channel: string, message: string): Promise<void> {
    if (channel === SOLD_OUT_CHANNEL) this.notices.push(JSON.parse(message) as SoldOutNotice);
    return Promise.resolve();
  }
  subscribe() {
    return Promise.resolve(() => Promise.resolve());
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

const now = new Date('2026-11-27T10:00:00Z');

async function beaconOnOneUnit() {
  const productId = randomUUID();
  const stream = stockStreamId(productId, null);
  const writer = new StockWriter(testLog.store);
  const pubsub = new RecordingPubSub();
  const products = {
    get: (id: string) =>
      Promise.resolve({
        id,
        name: 'Beacon Kurta',
        image: '',
        pricePaise: 99_900,
        isDelisted: false,
        sizeQuantities: {},
      }),
  } as unknown as ProductFactsView;
  const beacon = new SoldOutBeacon({
    writer,
    products,
    store: testLog.store,
    pubsub,
    logger: createLogger('test', 'silent'),
  });
  await beacon.start();
  const run = (command: StockCommand) => writer.execute(stream, command);
  await run({ type: 'SetStockLevel', data: { productId, size: null, available: 1, now } });
  const reserve = (reservationId: string) =>
    run({ type: 'ReserveStock', data: { productId, size: null, reservationId, quantity: 1, now } });
  await reserve('first');
  // The publish reads the product's facts first.
  await new Promise((resolve) => setImmediate(resolve));
  return { productId, stream, writer, pubsub, beacon, run, reserve };
}

describe('SoldOutBeacon', () => {
  it('flags a stock when a hold takes its last unit, and clears it before a release is written', async () => {
    const { productId, pubsub, beacon, run } = await beaconOnOneUnit();
    try {
      expect(pubsub.notices).toEqual([{ productId, soldOut: [null], name: 'Beacon Kurta', sizeQuantities: {} }]);
      const released = run({
        type: 'ReleaseStock',
        data: { productId, size: null, reservationId: 'first', reason: 'test', now },
      });
      // Published as the release is handed to the writer, before it is decided or appended.
      expect(pubsub.notices.at(-1)).toEqual({ productId, soldOut: [] });
      await released;
    } finally {
      await beacon.stop();
    }
  });

  it('clears a flagged stock when a stock level is appended outside the writer (a product edit)', async () => {
    const { productId, stream, pubsub, beacon } = await beaconOnOneUnit();
    try {
      expect(pubsub.notices).toHaveLength(1);
      const version = (await testLog.store.readStream(stream)).length;
      await testLog.store.append(stream, version, [
        { type: 'StockLevelSet', data: { productId, size: null, available: 5, at: now.toISOString() } },
      ]);
      expect(pubsub.notices.at(-1)).toEqual({ productId, soldOut: [] });
    } finally {
      await beacon.stop();
    }
  });

  it('does not flag a stock that still has units, nor say it again on each refused hold', async () => {
    const productId = randomUUID();
    const stream = stockStreamId(productId, null);
    const { pubsub, beacon, reserve, writer } = await beaconOnOneUnit();
    try {
      await writer.execute(stream, { type: 'SetStockLevel', data: { productId, size: null, available: 2, now } });
      await writer.execute(stream, {
        type: 'ReserveStock',
        data: { productId, size: null, reservationId: 'one', quantity: 1, now },
      });
      for (const id of ['late-1', 'late-2']) await expect(reserve(id)).rejects.toThrow();
      await new Promise((resolve) => setImmediate(resolve));
      expect(pubsub.notices).toHaveLength(1);
    } finally {
      await beacon.stop();
    }
  });
});
