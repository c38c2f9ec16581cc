import { describe, expect, inject, it } from 'vitest';
import { createLogger } from '../observability/logger.ts';
import { createCache } from './index.ts';
import { closedAfterEachTest, redisAndMemory, testPrefixes } from './testing/contract-setup.ts';
import { waitUntil } from '@shop/test-support/wait-until';

const redisUrl = inject('redisUrl');
const logger = createLogger('test', 'silent');
const newPrefix = testPrefixes(redisUrl);

describe.each(redisAndMemory(redisUrl))('Cache contract: $adapter', ({ redisUrl }) => {
  const open = closedAfterEachTest(() => createCache({ redisUrl, prefix: newPrefix('cache'), logger }));

  it('gets what was set, null for a missing key, and null again after del', async () => {
    const cache = open();
    expect(await cache.get('product:1')).toBeNull();
    await cache.set('product:1', 'kurta');
    await cache.set('product:2', 'saree');
    await cache.set('product:3', 'dupatta');
    expect(await cache.get('product:1')).toBe('kurta');
    await cache.set('product:1', 'silk kurta');
    expect(await cache.get('product:1')).toBe('silk kurta');
    await cache.del('product:1', 'product:2', 'never-set');
    await cache.del();
    expect([await cache.get('product:1'), await cache.get('product:2'), await cache.get('product:3')]).toEqual([
      null,
      null,
      'dupatta',
    ]);
  });

  it('expires an entry after its TTL, and keeps one without a TTL', async () => {
    const cache = open();
    const setAt = Date.now();
    await cache.set('stock:hot', '3', 0.15);
    await cache.set('stock:cold', '9');
    expect(await cache.get('stock:hot')).toBe('3');
    await waitUntil(async () => (await cache.get('stock:hot')) === null, 'the TTL to expire', 3_000);
    expect(Date.now() - setAt).toBeGreaterThanOrEqual(150);
    expect(await cache.get('stock:cold')).toBe('9');
    await expect(cache.set('bad', 'x', 0)).rejects.toThrow(RangeError);
  });

  it('round-trips JSON with unicode, money in paise and nesting unchanged', async () => {
    const cache = open();
    const home = {
      title: 'दिवाली सेल ₹',
      products: [{ id: 'p-1', name: 'Kurta 👕', pricePaise: 129_900, sizes: ['S', 'M'], onSale: true, discount: null }],
      quote: 'a "quoted" \\ value\n',
    };
    await cache.set('home', JSON.stringify(home), 60);
    expect(JSON.parse((await cache.get('home'))!)).toEqual(home);
  });

  it('isolates caches with different prefixes', async () => {
    const catalog = open();
    const orders = open();
    await catalog.set('k', 'catalog');
    expect(await orders.get('k')).toBeNull();
    await orders.set('k', 'orders');
    await orders.del('k');
    expect(await catalog.get('k')).toBe('catalog');
  });
});

describe('RedisCache', () => {
  it('shares entries between instances (processes) that use the same prefix', async () => {
    const prefix = newPrefix('cache');
    const writer = createCache({ redisUrl, prefix, logger });
    const reader = createCache({ redisUrl, prefix, logger });
    try {
      await writer.set('stock:p-1:M', '7');
      expect(await reader.get('stock:p-1:M')).toBe('7');
      await reader.del('stock:p-1:M');
      expect(await writer.get('stock:p-1:M')).toBeNull();
    } finally {
      await Promise.all([writer.close(), reader.close()]);
    }
  });
});
