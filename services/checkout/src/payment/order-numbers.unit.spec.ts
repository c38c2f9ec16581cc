import { describe, expect, it } from 'vitest';
import { OrderNumberPool } from './order-numbers.ts';

/** The order service's sequence as the port hands it out: each number once, a block per call. */
const sequence = () => {
  let next = 100001;
  const calls: number[] = [];
  return {
    calls,
    allocate: async (count: number) => {
      calls.push(count);
      return Array.from({ length: count }, () => `ORD-${next++}`);
    },
  };
};

describe('OrderNumberPool', () => {
  it('hands out each number once, a block per call, lowest first; concurrent takes share one fetch', async () => {
    const seq = sequence();
    const pool = new OrderNumberPool(seq.allocate, undefined, 3);
    const taken = await Promise.all([pool.take(), pool.take(), pool.take(), pool.take()]);
    expect(taken).toEqual(['ORD-100001', 'ORD-100002', 'ORD-100003', 'ORD-100004']);
    expect(seq.calls).toEqual([3, 3]);
  });

  it('a number given back (not recorded) is the next one taken, before the higher ones', async () => {
    const seq = sequence();
    const pool = new OrderNumberPool(seq.allocate, undefined, 20);
    const first = await pool.take();
    await pool.take();
    pool.giveBack(first!);
    expect(await pool.take()).toBe('ORD-100001');
    expect(await pool.take()).toBe('ORD-100003');
  });

  it('answers null (and warns) when the order service gives no numbers, and asks again next time', async () => {
    const warnings: string[] = [];
    let up = false;
    const pool = new OrderNumberPool(
      async (count) => {
        if (!up) throw new Error('connect ECONNREFUSED');
        return Array.from({ length: count }, (_, i) => `ORD-${200001 + i}`);
      },
      { warn: (_obj: object, msg: string) => void warnings.push(msg) } as never,
      2,
    );
    expect(await pool.take()).toBeNull();
    expect(warnings).toEqual(['no order numbers: payment recorded without one']);
    up = true;
    expect(await pool.take()).toBe('ORD-200001');
  });
});
