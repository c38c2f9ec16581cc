import { describe, expect, it } from 'vitest';
import type { PaymentEvent, PaymentOrderCreated } from '@shop/shared/contracts/payment-events';
import {
  decidePayment,
  evolvePayment,
  initialPaymentState,
  orderTotalPaise,
  PaymentAfterExpiryError,
  PaymentRefundDueError,
} from './decider.ts';

const now = new Date('2026-11-22T10:00:00Z');
const created: PaymentOrderCreated = {
  type: 'PaymentOrderCreated',
  data: {
    razorpayOrderId: 'order_1',
    reservationId: 'r1',
    holds: [],
    receipt: 'rcpt_1',
    currency: 'INR',
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + 900_000).toISOString(),
    customer: { userId: 'u1', name: 'Asha', email: 'a@b.in', phone: '+91' },
    address: 'MG Road',
    pincode: '560001',
    lines: [
      {
        productId: 'p',
        name: 'Kurta',
        image: '',
        size: 'M',
        color: null,
        quantity: 2,
        unitPricePaise: 49900,
        lineTotalPaise: 99800,
      },
    ],
    subtotalPaise: 99800,
    couponCode: null,
    discountPaise: 0,
    shippingChargePaise: 0,
    deliveryChargePaise: 0,
    totalPaise: 99800,
  },
};
const given = (events: PaymentEvent[]) => events.reduce(evolvePayment, initialPaymentState());
const verify = (paymentId = 'pay_1') => ({
  type: 'VerifyPayment' as const,
  data: { paymentId, via: 'checkout' as const, now },
});

describe('payment order decider', () => {
  it('records PaymentVerified once with the order it pays for', () => {
    const [e] = decidePayment(verify(), given([created]));
    expect(e).toMatchObject({
      type: 'PaymentVerified',
      data: { razorpayOrderId: 'order_1', razorpayPaymentId: 'pay_1', totalPaise: 99800, via: 'checkout' },
    });
    expect(decidePayment(verify(), given([created, e!]))).toEqual([]);
    expect(decidePayment(verify('pay_2'), given([created, e!]))).toEqual([]);
  });
  it('refuses a verify for an unknown order', () => {
    expect(() => decidePayment(verify(), given([]))).toThrow('Payment order not found');
  });
  it('expires an unpaid order once, and then a late payment is refused for refund', () => {
    const exp = decidePayment({ type: 'ExpirePaymentOrder', data: { now } }, given([created]));
    expect(exp.map((e) => e.type)).toEqual(['PaymentOrderExpired']);
    expect(decidePayment({ type: 'ExpirePaymentOrder', data: { now } }, given([created, ...exp]))).toEqual([]);
    expect(() => decidePayment(verify(), given([created, ...exp]))).toThrow(PaymentAfterExpiryError);
  });
  it('never expires a paid order', () => {
    const v = decidePayment(verify(), given([created]));
    expect(decidePayment({ type: 'ExpirePaymentOrder', data: { now } }, given([created, ...v]))).toEqual([]);
  });
  it('totals by the seed rule: discount never below zero, then charges', () => {
    expect(
      orderTotalPaise({
        subtotalPaise: 1000,
        discountPaise: 5000,
        shippingChargePaise: 100,
        deliveryChargePaise: 5000,
      }),
    ).toBe(5100);
    expect(
      orderTotalPaise({
        subtotalPaise: 60000,
        discountPaise: 10000,
        shippingChargePaise: 0,
        deliveryChargePaise: 5000,
      }),
    ).toBe(55000);
  });

  it('an order opened without a cart is verified only once priced, and lapses unpriced', () => {
    const opened: PaymentEvent = {
      type: 'PaymentOrderOpened',
      data: {
        razorpayOrderId: 'order_1',
        amountPaise: 99800,
        receipt: 'r',
        currency: 'INR',
        userId: null,
        createdAt: now.toISOString(),
        expiresAt: now.toISOString(),
      },
    };
    expect(() => decidePayment(verify(), given([opened]))).toThrow('The order details are needed');
    const priced = decidePayment({ type: 'CreatePaymentOrder', data: created.data }, given([opened]));
    expect(decidePayment(verify(), given([opened, ...priced])).map((e) => e.type)).toEqual(['PaymentVerified']);
    expect(() =>
      decidePayment(
        { type: 'CreatePaymentOrder', data: { ...created.data, razorpayOrderId: 'order_other' } },
        given([opened]),
      ),
    ).toThrow('already exists');
    const lapsed = decidePayment({ type: 'ExpirePaymentOrder', data: { now } }, given([opened]));
    expect(lapsed).toMatchObject([{ type: 'PaymentOrderExpired', data: { reservationId: '' } }]);
    expect(() => decidePayment(verify(), given([opened, ...lapsed]))).toThrow(PaymentAfterExpiryError);
  });

  it("issue 15 defect 8: an account's opened order takes a cart only from that account, not whoever verifies first", () => {
    const openedBy = (userId: string | null): PaymentEvent => ({
      type: 'PaymentOrderOpened',
      data: {
        razorpayOrderId: 'order_1',
        amountPaise: 99800,
        receipt: 'r',
        currency: 'INR',
        userId,
        createdAt: now.toISOString(),
        expiresAt: now.toISOString(),
      },
    });
    const cartFrom = (userId: string | null) => ({
      type: 'CreatePaymentOrder' as const,
      data: { ...created.data, customer: { ...created.data.customer, userId } },
    });
    for (const stranger of ['u2', null]) {
      let thrown: unknown;
      try {
        decidePayment(cartFrom(stranger), given([openedBy('u1')]));
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toMatchObject({ kind: 'forbidden', message: 'Payment verification failed' });
    }
    expect(decidePayment(cartFrom('u1'), given([openedBy('u1')]))).toHaveLength(1);
    // a guest-opened order: the signed payment is the proof, whoever brings it
    expect(decidePayment(cartFrom('u2'), given([openedBy(null)]))).toHaveLength(1);
    expect(decidePayment(cartFrom(null), given([openedBy(null)]))).toHaveLength(1);
  });
});

describe('refunds of money that cannot become an order', () => {
  const refundDue = (paymentId = 'pay_late') => ({
    type: 'RecordRefundDue' as const,
    data: { paymentId, reason: 'paid_after_expiry' as const, detail: 'late', customerEmail: null, now },
  });
  const refunded = (paymentId = 'pay_late') => ({
    type: 'RecordRefund' as const,
    data: { paymentId, refundId: 'rfnd_1', amountPaise: 99800, now },
  });
  const expired = () => [created, ...decidePayment({ type: 'ExpirePaymentOrder', data: { now } }, given([created]))];

  it("records a refund due for a late payment once, for the order's amount and buyer", () => {
    const due = decidePayment(refundDue(), given(expired()));
    expect(due).toEqual([
      {
        type: 'RefundDue',
        data: {
          razorpayOrderId: 'order_1',
          razorpayPaymentId: 'pay_late',
          amountPaise: 99800,
          reason: 'paid_after_expiry',
          detail: 'late',
          customerEmail: 'a@b.in',
          dueAt: now.toISOString(),
        },
      },
    ]);
    expect(decidePayment(refundDue(), given([...expired(), ...due]))).toEqual([]);
  });

  it('records the refund once, and only for a refund that is due', () => {
    expect(() => decidePayment(refunded(), given(expired()))).toThrow('No refund is due for this payment');
    const due = decidePayment(refundDue(), given(expired()));
    const done = decidePayment(refunded(), given([...expired(), ...due]));
    expect(done).toMatchObject([
      { type: 'PaymentRefunded', data: { razorpayPaymentId: 'pay_late', refundId: 'rfnd_1', amountPaise: 99800 } },
    ]);
    expect(decidePayment(refunded(), given([...expired(), ...due, ...done]))).toEqual([]);
    expect(given([...expired(), ...due, ...done])).toMatchObject({ refunds: { pay_late: 'refunded' } });
  });

  it('never verifies a payment that is being refunded, and never refunds the payment that placed the order', () => {
    const opened: PaymentEvent = {
      type: 'PaymentOrderOpened',
      data: {
        razorpayOrderId: 'order_2',
        amountPaise: 100,
        receipt: 'r',
        currency: 'INR',
        userId: null,
        createdAt: now.toISOString(),
        expiresAt: now.toISOString(),
      },
    };
    const due = decidePayment(
      { ...refundDue('pay_1'), data: { ...refundDue('pay_1').data, customerEmail: 'g@x.in' } },
      given([opened]),
    );
    expect(due).toMatchObject([{ data: { amountPaise: 100, customerEmail: 'g@x.in' } }]);
    expect(() => decidePayment(verify('pay_1'), given([opened, ...due]))).toThrow(PaymentRefundDueError);

    const paid = decidePayment(verify('pay_1'), given([created]));
    expect(() => decidePayment(refundDue('pay_1'), given([created, ...paid]))).toThrow('placed the order');
  });
});
