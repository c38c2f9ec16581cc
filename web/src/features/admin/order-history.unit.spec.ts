import { describe, expect, it } from 'vitest';
import { eventName, eventSummary, formatIndiaTime, parseOrderHistory } from './order-history';

describe('eventName', () => {
  it('reads an event type as words', () => {
    expect(eventName('PaymentVerified')).toBe('Payment verified');
    expect(eventName('OrderMarkedSeen')).toBe('Order marked seen');
    expect(eventName('DeliveryStatusChanged')).toBe('Delivery status changed');
    expect(eventName('AWBAssigned')).toBe('AWB assigned');
    expect(eventName('Placed')).toBe('Placed');
  });
});

describe('eventSummary', () => {
  it('gives the delivery status change, payment amounts in rupees, units held and nothing otherwise', () => {
    expect(eventSummary({ type: 'DeliveryStatusChanged', data: { from: 'Processing', to: 'Delivered' } })).toBe(
      'Processing → Delivered',
    );
    expect(eventSummary({ type: 'PaymentOrderOpened', data: { amountPaise: 149950 } })).toBe('₹1,499.50');
    expect(eventSummary({ type: 'PaymentVerified', data: { totalPaise: 100, via: 'checkout' } })).toBe(
      '₹1.00 · via checkout',
    );
    expect(eventSummary({ type: 'PaymentFailed', data: { reason: 'card declined' } })).toBe('card declined');
    expect(
      eventSummary({ type: 'OrderCancelled', data: { reason: 'Parcel damaged', cancelledAs: 'admin', totalPaise: 1 } }),
    ).toBe('Parcel damaged · by the admin');
    expect(eventSummary({ type: 'PaymentRefunded', data: { amountPaise: 274910, refundId: 'rfnd_A1' } })).toBe(
      '₹2,749.10 · rfnd_A1',
    );
    expect(eventSummary({ type: 'RefundDue', data: { amountPaise: 100, reason: 'order_cancelled' } })).toBe(
      '₹1.00 · order_cancelled',
    );
    expect(eventSummary({ type: 'StockReleased', data: { quantity: 2, size: null, reason: 'expired' } })).toBe(
      '2 units · expired',
    );
    expect(
      eventSummary({
        type: 'ShipmentCreated',
        data: { awb: 'SR000100000001', courier: 'Sandbox Express', shippingStatus: 'AWB ASSIGNED' },
      }),
    ).toBe('AWB SR000100000001 · Sandbox Express · AWB ASSIGNED');
    expect(eventSummary({ type: 'ShippingStatusUpdated', data: { shippingStatus: 'RTO INITIATED' } })).toBe(
      'RTO INITIATED',
    );
    expect(
      eventSummary({ type: 'ShipmentCancelled', data: { awb: 'SR000100000001', cancelledAt: '2026-11-22T10:15:30Z' } }),
    ).toBe('AWB SR000100000001 · cancelled at Shiprocket');
    expect(eventSummary({ type: 'OrderMarkedSeen', data: { seenBy: 'a' } })).toBeNull();
    expect(eventSummary({ type: 'PaymentVerified', data: null })).toBeNull();
  });
});

describe('formatIndiaTime', () => {
  it('shows the instant in India time, falling back to the server text without milliseconds', () => {
    expect(formatIndiaTime({ time: '2026-11-22T10:15:30.000Z', indiaTime: '' })).toMatch(
      /^22 Nov 2026, 3:45:30\s?pm IST$/,
    );
    expect(formatIndiaTime({ time: 'nope', indiaTime: '2026-11-22 15:45:30.123 IST' })).toBe('2026-11-22 15:45:30 IST');
  });
});

describe('parseOrderHistory', () => {
  it('keeps readable events in the order sent and drops the rest', () => {
    const events = parseOrderHistory({
      orderNumber: 'ORD-1',
      events: [
        { position: '2', type: 'OrderPlaced', time: 't', indiaTime: 'i', actor: 'guest', data: {} },
        { position: '1', type: '' },
        'junk',
        { source: 'checkout', position: 1, type: 'PaymentVerified', actor: null, data: { via: 'webhook' } },
      ],
    });
    expect(events.map((e) => [e.position, e.type, e.actor])).toEqual([
      ['2', 'OrderPlaced', 'guest'],
      ['1', 'PaymentVerified', null],
    ]);
    expect(parseOrderHistory({ message: 'nope' })).toEqual([]);
  });
});
