import { describe, expect, inject, it } from 'vitest';
import { createLogger } from '../observability/logger.ts';
import { createPubSub } from './index.ts';
import { closedAfterEachTest, redisAndMemory, testPrefixes } from './testing/contract-setup.ts';
import { waitUntil } from '@shop/test-support/wait-until';

const redisUrl = inject('redisUrl');
const logger = createLogger('test', 'silent');
const newPrefix = testPrefixes(redisUrl);

describe.each(redisAndMemory(redisUrl))('PubSub contract: $adapter', ({ redisUrl }) => {
  const open = closedAfterEachTest(() => createPubSub({ redisUrl, prefix: newPrefix('pubsub'), logger }));

  it('delivers published messages to a subscriber in publish order, asynchronously', async () => {
    const pubsub = open();
    const received: string[] = [];
    await pubsub.subscribe('orders', (m) => received.push(m));
    const sent = Array.from({ length: 200 }, (_, i) => JSON.stringify({ orderNumber: `ORD-${i}`, status: 'Placed' }));
    const first = pubsub.publish('orders', sent[0]!);
    // A handler never runs on the publisher's stack (it could re-enter the publisher's code).
    expect(received).toEqual([]);
    await first;
    for (const m of sent.slice(1)) await pubsub.publish('orders', m);
    await waitUntil(() => received.length === sent.length, 'all messages');
    expect(received).toEqual(sent);
  });

  it('delivers only the channel subscribed to', async () => {
    const pubsub = open();
    const received: string[] = [];
    await pubsub.subscribe('orders', (m) => received.push(`orders:${m}`));
    await pubsub.subscribe('dashboard', (m) => received.push(`dashboard:${m}`));
    await pubsub.publish('stock', 'x');
    await pubsub.publish('orders', '1');
    await pubsub.publish('dashboard', '2');
    await waitUntil(() => received.length === 2, 'two messages');
    expect(received).toEqual(['orders:1', 'dashboard:2']);
  });

  it('stops delivery once unsubscribe resolves, and keeps other subscribers of the channel', async () => {
    const pubsub = open();
    const first: string[] = [];
    const second: string[] = [];
    const unsubscribeFirst = await pubsub.subscribe('orders', (m) => first.push(m));
    await pubsub.subscribe('orders', (m) => second.push(m));
    await pubsub.publish('orders', 'before');
    await waitUntil(() => first.length === 1 && second.length === 1, 'the first message');
    await unsubscribeFirst();
    await unsubscribeFirst();
    await pubsub.publish('orders', 'after-1');
    await pubsub.publish('orders', 'after-2');
    // The remaining subscriber got both later messages, so they were delivered: the removed one got none.
    await waitUntil(() => second.length === 3, 'the later messages');
    expect(first).toEqual(['before']);
    expect(second).toEqual(['before', 'after-1', 'after-2']);
  });

  it('fans each message out to two subscribers, and a throwing subscriber does not block the other', async () => {
    const pubsub = open();
    const a: string[] = [];
    const b: string[] = [];
    await pubsub.subscribe('admin', (m) => {
      a.push(m);
      throw new Error('subscriber bug');
    });
    await pubsub.subscribe('admin', (m) => b.push(m));
    for (const m of ['1', '2', '3']) await pubsub.publish('admin', m);
    await waitUntil(() => a.length === 3 && b.length === 3, 'both subscribers');
    expect(a).toEqual(['1', '2', '3']);
    expect(b).toEqual(['1', '2', '3']);
  });

  it('delivers nothing after close', async () => {
    const pubsub = open();
    const probe = open();
    const received: string[] = [];
    const control: string[] = [];
    await pubsub.subscribe('orders', (m) => received.push(m));
    await probe.subscribe('orders', (m) => control.push(m));
    await pubsub.close();
    await probe.publish('orders', 'late');
    await waitUntil(() => control.length === 1, 'the control message');
    expect(received).toEqual([]);
  });
});

describe('RedisPubSub', () => {
  it('fans out across instances (processes) that use the same prefix, and isolates other prefixes', async () => {
    const prefix = newPrefix('pubsub');
    const otherPrefix = newPrefix('pubsub');
    const gateway = createPubSub({ redisUrl, prefix, logger });
    const gateway2 = createPubSub({ redisUrl, prefix, logger });
    const orderService = createPubSub({ redisUrl, prefix, logger });
    const otherApp = createPubSub({ redisUrl, prefix: otherPrefix, logger });
    try {
      const seen: string[] = [];
      const seen2: string[] = [];
      const other: string[] = [];
      await gateway.subscribe('orders', (m) => seen.push(m));
      await gateway2.subscribe('orders', (m) => seen2.push(m));
      await otherApp.subscribe('orders', (m) => other.push(m));
      await otherApp.publish('orders', 'not-ours');
      await orderService.publish('orders', 'ORD-1');
      await waitUntil(() => seen.length === 1 && seen2.length === 1 && other.length === 1, 'fan-out');
      expect([seen, seen2, other]).toEqual([['ORD-1'], ['ORD-1'], ['not-ours']]);
    } finally {
      await Promise.all([gateway, gateway2, orderService, otherApp].map((p) => p.close()));
    }
  });
});
