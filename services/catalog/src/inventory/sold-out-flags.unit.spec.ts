import { describe, expect, it } from 'vitest';
import type { PubSub } from '@shop/shared/cache/types';
import { SOLD_OUT_CHANNEL, SOLD_OUT_TTL_MS, SoldOutFlags, type SoldOutNotice } from './sold-out-beacon.ts';

/**
 * The sold-out flags as the distributed gateway holds them: a refusal only from a fresh flag of every line's
 * stock; a flag older than SOLD_OUT_TTL_MS (its clear lost, its catalog gone) refuses nothing; a clear, a
 * product's changed facts or a gap in the messages forget flags at once.
 */

/** A pub/sub whose messages and gaps the test delivers by hand. */
class HandPubSub implements PubSub {
  readonly subs = new Map<string, { handler: (m: string) => void; onGap?: () => void }>();
  publish(): Promise<void> {
    return Promise.resolve();
  }
  subscribe(channel: string, handler: (m: string) => void, options: { onGap?: () => void } = {}) {
    this.subs.set(channel, { handler, onGap: options.onGap });
    return Promise.resolve(() => Promise.resolve(void this.subs.delete(channel)));
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
  say(channel: string, message: unknown) {
    this.subs.get(channel)!.handler(JSON.stringify(message));
  }
  gap() {
    for (const s of this.subs.values()) s.onGap?.();
  }
}

const kurta: SoldOutNotice = { productId: 'p-kurta', soldOut: [null], name: 'Flag Kurta', sizeQuantities: {} };
const line = (quantity = 1, productId = 'p-kurta', size: string | null = null) => ({
  productId,
  size,
  color: null,
  quantity,
});
const REFUSAL = {
  ok: false,
  title: 'Not enough stock',
  message: 'Flag Kurta only has 0 item(s) available. You requested 2.',
};

async function started() {
  let now = 1_000;
  const pubsub = new HandPubSub();
  const flags = new SoldOutFlags(pubsub, () => now);
  await flags.start();
  return { flags, pubsub, tick: (ms: number) => (now += ms) };
}

describe('SoldOutFlags', () => {
  it('refuses from a fresh flag with the inventory’s refusal, and nothing once the flag is older than its TTL', async () => {
    const { flags, pubsub, tick } = await started();
    expect(await flags.refusalFromMemory([line(2)])).toBeNull();
    pubsub.say(SOLD_OUT_CHANNEL, kurta);
    expect(await flags.refusalFromMemory([line(2)])).toEqual(REFUSAL);
    tick(SOLD_OUT_TTL_MS - 1);
    expect(await flags.refusalFromMemory([line(2)])).toEqual(REFUSAL);
    // Said again (the catalog's refresh): trusted for another TTL from then.
    pubsub.say(SOLD_OUT_CHANNEL, kurta);
    tick(SOLD_OUT_TTL_MS - 1);
    expect(await flags.refusalFromMemory([line(2)])).toEqual(REFUSAL);
    // Not said again (a lost clear, a catalog gone): stale, the request goes on to checkout.
    tick(1);
    expect(await flags.refusalFromMemory([line(2)])).toBeNull();
  });

  it('forgets a product’s flags on its clear, on its changed facts, and every flag on a gap in the messages', async () => {
    const { flags, pubsub } = await started();
    pubsub.say(SOLD_OUT_CHANNEL, kurta);
    pubsub.say(SOLD_OUT_CHANNEL, { productId: 'p-kurta', soldOut: [] });
    expect(await flags.refusalFromMemory([line()])).toBeNull();

    pubsub.say(SOLD_OUT_CHANNEL, kurta);
    pubsub.say('catalog.product-facts.changed', ['p-other']);
    expect(await flags.refusalFromMemory([line()])).not.toBeNull();
    pubsub.say('catalog.product-facts.changed', ['p-kurta']);
    expect(await flags.refusalFromMemory([line()])).toBeNull();

    pubsub.say(SOLD_OUT_CHANNEL, kurta);
    pubsub.gap();
    expect(await flags.refusalFromMemory([line()])).toBeNull();

    pubsub.say(SOLD_OUT_CHANNEL, kurta);
    flags.dropAll();
    expect(await flags.refusalFromMemory([line()])).toBeNull();
  });

  it('refuses only when every line’s stock is flagged, with the inventory’s rules for sizes', async () => {
    const { flags, pubsub } = await started();
    const sized: SoldOutNotice = {
      productId: 'p-saree',
      soldOut: ['M'],
      name: 'Flag Saree',
      sizeQuantities: { M: 0, L: 3 },
    };
    pubsub.say(SOLD_OUT_CHANNEL, kurta);
    pubsub.say(SOLD_OUT_CHANNEL, sized);
    expect(await flags.refusalFromMemory([line(1, 'p-saree', 'M')])).toEqual({
      ok: false,
      title: 'Size not available',
      message: 'Flag Saree - Size M only has 0 item(s) available. You requested 1.',
    });
    // Another size, no size on a product sold by size, an unknown product, one line not flagged: no refusal.
    expect(await flags.refusalFromMemory([line(1, 'p-saree', 'L')])).toBeNull();
    expect(await flags.refusalFromMemory([line(1, 'p-saree', null)])).toBeNull();
    expect(await flags.refusalFromMemory([line(1, 'p-unknown')])).toBeNull();
    expect(await flags.refusalFromMemory([line(1), line(1, 'p-saree', 'L')])).toBeNull();
    // Every line flagged: the first is named.
    expect(await flags.refusalFromMemory([line(1, 'p-saree', 'M'), line(1)])).toMatchObject({
      title: 'Size not available',
    });
  });

  it('refuses nothing before it is subscribed or after it stopped', async () => {
    const pubsub = new HandPubSub();
    const flags = new SoldOutFlags(pubsub, () => 0);
    expect(await flags.refusalFromMemory([line()])).toBeNull();
    await flags.start();
    pubsub.say(SOLD_OUT_CHANNEL, kurta);
    expect(await flags.refusalFromMemory([line()])).not.toBeNull();
    await flags.stop();
    expect(await flags.refusalFromMemory([line()])).toBeNull();
  });
});
