import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ADMIN } from '@shop/test-support/fixtures';
import { httpClient } from '@shop/test-support/http';
import { startEmbeddedShop, type EmbeddedShop } from './support/browser.ts';
import { afterSaleJourney } from './support/after-sale-journey.ts';

// Issue 26, Must show: the whole after-sale journey on the embedded default, as a newcomer runs it, with the
// built-in sandboxes standing in for Razorpay, Shiprocket and SMTP (distributed-kafka.e2e.spec.ts runs the
// same journey against the processes of distributed mode).

let shop: EmbeddedShop;
beforeAll(async () => {
  shop = await startEmbeddedShop();
});
afterAll(() => shop?.stop());

describe('after the sale, on the embedded default', () => {
  it('buy -> the order e-mail -> an AWB and the shipped e-mail -> tracking moves it to Out for Delivery, then Delivered, pushed live, with e-mails', async () => {
    const { orderNumber } = await afterSaleJourney(shop.base, DEFAULT_ADMIN);

    // The admin's timeline (what `npm run audit -- order N` prints) holds the shipment, tracking and e-mails.
    const api = httpClient(shop.base);
    const admin = (await api<{ token: string }>('POST', '/api/auth/login', { body: DEFAULT_ADMIN })).body.token;
    const history = await api<{ events: Array<{ type: string }> }>('GET', `/api/orders/admin/${orderNumber}/history`, {
      token: admin,
    });
    const types = history.body.events.map((e) => e.type);
    expect(types).toEqual(
      expect.arrayContaining(['OrderPlaced', 'ShipmentCreated', 'ShippingStatusUpdated', 'OrderEmailSent']),
    );
    expect(types.filter((t) => t === 'ShippingStatusUpdated')).toHaveLength(2);
  });
});
