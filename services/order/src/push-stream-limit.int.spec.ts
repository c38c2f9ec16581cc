import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import { waitUntil } from '@shop/test-support/wait-until';
import { startOrderTestHost, type OrderTestHost } from './testing/order-test-host.ts';
import { openEventStream, type EventStreamReader } from './testing/sse-client.ts';

let db: TestDatabase;
let host: OrderTestHost;
const streams: EventStreamReader[] = [];
beforeAll(async () => {
  db = await createTestDatabase({ migrate: false });
  // The default limit (5), as the shop runs it.
  host = await startOrderTestHost({ databaseUrl: db.url });
});
afterAll(async () => {
  for (const s of streams) s.close();
  await host?.close();
  await db?.drop();
});

const open = async (token: string) => {
  const s = await openEventStream(`${host.url}/api/orders/stream`, { token });
  streams.push(s);
  return s;
};

describe('push streams per user are capped (issue 15, defect 8: one user could hold 1,000 SSE streams)', () => {
  it('a 6th concurrent /api/orders/stream of one user is refused with 429 and a clear message; other users are not affected', async () => {
    const anil = await host.register('Anil', 'anil@example.in');
    const five = await Promise.all(Array.from({ length: 5 }, () => open(anil.token)));
    for (const s of five) {
      expect(s.status).toBe(200);
      await s.waitFor((e) => e.event === 'ready', 'ready');
    }
    const sixth = await open(anil.token);
    expect(sixth.status).toBe(429);
    expect(JSON.parse(sixth.refusal)).toEqual({
      message:
        'Too many open order streams for this account (at most 5): close another tab or window of the shop and try again',
    });
    // A burst of attempts changes nothing: still five of Anil's streams open here.
    const burst = await Promise.all(Array.from({ length: 20 }, () => open(anil.token)));
    expect(burst.every((s) => s.status === 429)).toBe(true);
    expect(host.order.push.size).toBe(5);

    const bela = await host.register('Bela', 'bela@example.in');
    expect((await open(bela.token)).status).toBe(200);
  });

  it('closing a stream frees its slot for the same user', async () => {
    const chitra = await host.register('Chitra', 'chitra@example.in');
    const five = await Promise.all(Array.from({ length: 5 }, () => open(chitra.token)));
    expect(five.map((s) => s.status)).toEqual([200, 200, 200, 200, 200]);
    expect((await open(chitra.token)).status).toBe(429);
    const before = host.order.push.size;
    five[0]!.close();
    await waitUntil(() => host.order.push.size < before, 'the server to drop the closed stream');
    const again = await open(chitra.token);
    expect(again.status).toBe(200);
    await again.waitFor((e) => e.event === 'ready', 'ready');
  });

  it('admins are capped the same way', async () => {
    const admin = await host.login();
    const five = await Promise.all(Array.from({ length: 5 }, () => open(admin)));
    expect(five.map((s) => s.status)).toEqual([200, 200, 200, 200, 200]);
    expect((await open(admin)).status).toBe(429);
  });
});
