import { describe, expect, it } from 'vitest';
import { httpClient } from '@shop/test-support/http';
import { waitUntil } from '@shop/test-support/wait-until';
import { attempt, exitOf, openSse, probeWhileStopping, type Outcome } from './support/graceful-stop.ts';
import { useShopDataDir, waitHealthy } from './support/shop-process.ts';
import { SHOP_STOPPING_MESSAGE } from '../../services/razorpay-sandbox/src/razorpay-sandbox.ts';
import { DEFAULT_ADMIN, openSale, post, saleOrder, saleProduct } from './support/sale.ts';

/**
 * Issue 13: SIGTERM to the shop (embedded default) while a crowd of buyers' create-orders and catalogue
 * reads are in flight and an admin's push stream is open. Every request made before the signal gets a
 * complete answer (its own, or 503 "Shutting down"), the push stream gets a last `closing` event and ends
 * cleanly, new connections are refused or answered 503 "Shutting down", and the process exits 0 without
 * cutting anything at the shutdown bound.
 */
const BUYERS = 60;
const READS = 60;

const shops = useShopDataDir('shop-shutdown-');

const createOrder = (productId: string, n: number) => saleOrder(`stop_${n}`, n, productId);

describe('SIGTERM to the shop (embedded default)', () => {
  it('answers every request in flight, ends the push stream cleanly, refuses new work, and exits 0', async () => {
    const s = await shops.spawn();
    await waitHealthy(s);
    const api = httpClient(s.base);
    const { token, productId } = await openSale(api, DEFAULT_ADMIN, saleProduct('Shutdown Kurta', 500));

    const sse = await openSse(`${s.base}/api/orders/stream?access_token=${encodeURIComponent(token)}`);
    // `ready`, then the admin's first figures
    await waitUntil(() => sse.events.includes('stats'), "the admin's first stats on the push stream", 30_000);
    expect(sse.events.slice(0, 2)).toEqual(['ready', 'stats']);

    // Open the crowd's keep-alive connections first, so its requests reach the shop at once rather than while
    // their connections are still being made.
    const warm = await Promise.all(
      Array.from({ length: BUYERS + READS }, () => attempt(`${s.base}/api/products/${productId}`)),
    );
    expect(warm.filter((o) => o.status !== 200)).toEqual([]);
    // The crowd: create-orders (each calls the payment sandbox over HTTP) and catalogue reads, all at once.
    const t0 = performance.now();
    const clock = () => performance.now() - t0;
    const requests: Array<Promise<Outcome>> = [];
    for (let n = 0; n < BUYERS; n++)
      requests.push(
        attempt(
          `${s.base}/api/payment/create-order`,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.55.0.${n}` },
            body: JSON.stringify(createOrder(productId, n)),
          },
          clock,
        ),
      );
    for (let n = 0; n < READS; n++) requests.push(attempt(`${s.base}/api/products/${productId}`, {}, clock));
    // The first answer says the crowd is being served: now the signal.
    await Promise.race(requests);
    const exited = exitOf(s.child);
    const signalledAt = clock();
    s.child.kill('SIGTERM');
    const probes = probeWhileStopping(`${s.base}/api/health`, exited);

    const outcomes = await Promise.all(requests);
    const code = await exited;
    const exitedAt = clock();
    const seen = await probes;
    const streamEnd = await sse.finished;

    const answeredAfterSignal = outcomes.filter((o) => typeof o.status === 'number' && o.at > signalledAt);
    const completedAfterSignal = answeredAfterSignal.filter((o) => o.status === 201 || o.status === 200);
    const shuttingDown = outcomes.filter((o) => o.status === 503);
    console.log(
      `[shutdown] ${outcomes.length} requests: ${outcomes.filter((o) => o.at <= signalledAt).length} answered before SIGTERM, ` +
        `${completedAfterSignal.length} completed after it, ${shuttingDown.length} told "Shutting down"; ` +
        `exit ${code} ${Math.round(exitedAt - signalledAt)} ms after SIGTERM; probes: ${seen.shuttingDown.length} x 503, ${seen.refused} refused, ${seen.resetAtClose} reset at close`,
    );

    // Every request got a complete answer: its own (201 / 200), or 503 "Shutting down" with Connection: close.
    for (const o of outcomes) {
      if (o.status === 503) {
        expect(o.body).toEqual({ message: 'Shutting down' });
        expect(o.connection).toBe('close');
      } else expect([200, 201], JSON.stringify(o)).toContain(o.status);
    }
    // Requests in flight at the signal were finished, not dropped.
    expect(completedAfterSignal.length).toBeGreaterThan(0);
    // The push stream got its last event and ended cleanly (EventSource then reconnects elsewhere).
    expect(streamEnd).toBe('ended');
    expect(sse.events.at(-1)).toBe('closing');
    // New connections: refused, or told "Shutting down" (health says so too).
    expect(seen.other, JSON.stringify(seen.other)).toEqual([]);
    for (const o of seen.shuttingDown) {
      expect(o.body).toEqual({ status: 'shutting down', service: 'shop', message: 'Shutting down' });
      expect(o.connection).toBe('close');
    }
    expect(code).toBe(0);
    // Nothing was cut at the bound (the process logs it when it is).
    expect(s.output.join('\n')).not.toContain('requests still in flight at the shutdown bound');
  });

  it("refuses the sandbox's Pay (503) once the shop is draining, as verify and the webhook do (issue 27 item 7)", async () => {
    const s = await shops.spawn();
    await waitHealthy(s);
    const { productId } = await openSale(httpClient(s.base), DEFAULT_ADMIN, saleProduct('Drain Kurta', 5));
    const orderIds: string[] = [];
    for (const n of [1, 2]) {
      const created = await post(s.base, '/api/payment/create-order', createOrder(productId, n), {
        'x-forwarded-for': `10.56.0.${n}`,
      });
      expect(created !== 'cut' && created.status, JSON.stringify(created)).toBe(201);
      if (created !== 'cut') orderIds.push(created.body.id as string);
    }
    const pay = (orderId: string) => post(s.base, `/razorpay-sandbox/v1/checkout/orders/${orderId}/pay`, {});
    // Before the signal the dialog pays.
    expect(await pay(orderIds[0]!)).toMatchObject({ status: 200 });

    const exited = exitOf(s.child);
    s.child.kill('SIGTERM');
    // Draining: the shop answers "Shutting down" (for SHUTDOWN_LINGER_MS at least, even with nothing in flight).
    await waitUntil(
      async () => (await fetch(`${s.base}/api/health`).catch(() => null))?.status === 503,
      'the shop to answer "Shutting down"',
      5_000,
    );
    // A payment now could be neither verified nor webhooked: it is not taken.
    expect(await pay(orderIds[1]!)).toEqual({
      status: 503,
      body: { error: expect.objectContaining({ code: 'SERVER_ERROR', description: SHOP_STOPPING_MESSAGE }) },
    });
    expect(await exited).toBe(0);
  });
});
