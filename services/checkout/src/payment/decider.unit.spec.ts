import { describe, expect, it } from 'vitest';
import { deciderSpec } from '@shop/test-support/given-when-then';
import type { PaymentOrderCreated, PaymentOrderOpened } from '@shop/shared/contracts/payment-events';
import {
  decidePayment,
  evolvePayment,
  initialPaymentState,
  orderNumberOf,
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
/** An order opened without a cart (priced at verify): order_1 for ₹998 by a guest, unless told otherwise. */
const openedOrder = (
  o: { razorpayOrderId?: string; amountPaise?: number; userId?: string | null } = {},
): PaymentOrderOpened => ({
  type: 'PaymentOrderOpened',
  data: {
    razorpayOrderId: 'order_1',
    amountPaise: 99800,
    receipt: 'r',
    currency: 'INR',
    userId: null,
    createdAt: now.toISOString(),
    expiresAt: now.toISOString(),
    ...o,
  },
});
const given = deciderSpec({ decide: decidePayment, evolve: evolvePayment, initialState: initialPaymentState });
const verify = (paymentId = 'pay_1', orderNumber: string | null = 'ORD-100001') => ({
  type: 'VerifyPayment' as const,
  data: { paymentId, via: 'checkout' as const, now, orderNumber },
});

describe('payment order decider', () => {
  it('records PaymentVerified once with the order it pays for', () => {
    const [e] = given([created]).when(verify()).events();
    expect(e).toMatchObject({
      type: 'PaymentVerified',
      data: { razorpayOrderId: 'order_1', razorpayPaymentId: 'pay_1', totalPaise: 99800, via: 'checkout' },
    });
    given([created, e!]).when(verify()).then([]);
    given([created, e!]).when(verify('pay_2')).then([]);
  });
  it('records the number the order is placed under; the verified state answers it, whoever verifies again', () => {
    const [e] = given([created]).when(verify('pay_1', 'ORD-100042')).events();
    expect(e).toMatchObject({ type: 'PaymentVerified', data: { orderNumber: 'ORD-100042' } });
    const verified = [created, e!].reduce(evolvePayment, initialPaymentState());
    expect(orderNumberOf(verified)).toBe('ORD-100042');
    // a repeat with another number records nothing: the order keeps the first
    given([created, e!]).when(verify('pay_1', 'ORD-100043')).then([]);
    // without a number (none could be had), the event has none: the placement numbers the order
    const [bare] = given([created]).when(verify('pay_1', null)).events();
    expect(bare!.data).not.toHaveProperty('orderNumber');
    expect(orderNumberOf([created, bare!].reduce(evolvePayment, initialPaymentState()))).toBeNull();
  });
  it('refuses a verify for an unknown order', () => {
    given([]).when(verify()).then('Payment order not found');
  });
  it('expires an unpaid order once, and then a late payment is refused for refund', () => {
    const exp = given([created]).when({ type: 'ExpirePaymentOrder', data: { now } }).events();
    expect(exp.map((e) => e.type)).toEqual(['PaymentOrderExpired']);
    given([created, ...exp])
      .when({ type: 'ExpirePaymentOrder', data: { now } })
      .then([]);
    given([created, ...exp])
      .when(verify())
      .then(PaymentAfterExpiryError);
  });
  it('never expires a paid order', () => {
    const v = given([created]).when(verify()).events();
    given([created, ...v])
      .when({ type: 'ExpirePaymentOrder', data: { now } })
      .then([]);
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
    const opened = openedOrder();
    given([opened]).when(verify()).then('The order details are needed');
    const priced = given([opened]).when({ type: 'CreatePaymentOrder', data: created.data }).events();
    expect(
      given([opened, ...priced])
        .when(verify())
        .events()
        .map((e) => e.type),
    ).toEqual(['PaymentVerified']);
    given([opened])
      .when({ type: 'CreatePaymentOrder', data: { ...created.data, razorpayOrderId: 'order_other' } })
      .then('already exists');
    const lapsed = given([opened]).when({ type: 'ExpirePaymentOrder', data: { now } }).events();
    expect(lapsed).toMatchObject([{ type: 'PaymentOrderExpired', data: { reservationId: '' } }]);
    given([opened, ...lapsed])
      .when(verify())
      .then(PaymentAfterExpiryError);
  });

  it("issue 15 defect 8: an account's opened order takes a cart only from that account, not whoever verifies first", () => {
    const openedBy = (userId: string | null) => openedOrder({ userId });
    const cartFrom = (userId: string | null) => ({
      type: 'CreatePaymentOrder' as const,
      data: { ...created.data, customer: { ...created.data.customer, userId } },
    });
    for (const stranger of ['u2', null]) {
      let thrown: unknown;
      try {
        given([openedBy('u1')])
          .when(cartFrom(stranger))
          .events();
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toMatchObject({ kind: 'forbidden', message: 'Payment verification failed' });
    }
    expect(
      given([openedBy('u1')])
        .when(cartFrom('u1'))
        .events(),
    ).toHaveLength(1);
    // a guest-opened order: the signed payment is the proof, whoever brings it
    expect(
      given([openedBy(null)])
        .when(cartFrom('u2'))
        .events(),
    ).toHaveLength(1);
    expect(
      given([openedBy(null)])
        .when(cartFrom(null))
        .events(),
    ).toHaveLength(1);
  });
});

describe('issue 27: checkouts their buyer ended, and the hold before the dialog', () => {
  const ended = (reason: 'lapsed' | 'cancelled' | 'failed' | 'replaced') =>
    given([created]).when({ type: 'ExpirePaymentOrder', data: { now, reason } }).events();
  const revive = (paymentId = 'pay_1') => ({
    type: 'RevivePaymentOrder' as const,
    data: {
      reservationId: 'revive-pay_1',
      holds: [],
      paymentId,
      via: 'webhook' as const,
      now,
      orderNumber: 'ORD-100007',
    },
  });

  it('records why an order ended; only one its buyer ended is placed again from a late payment, with its new reservation', () => {
    for (const reason of ['cancelled', 'failed', 'replaced'] as const) {
      const exp = ended(reason);
      expect(exp[0]).toMatchObject({ type: 'PaymentOrderExpired', data: { reason, reservationId: 'r1' } });
      const events = given([created, ...exp])
        .when(revive())
        .events();
      expect(events.map((e) => e.type)).toEqual(['PaymentOrderRevived', 'PaymentVerified']);
      expect(events[1]).toMatchObject({ data: { reservationId: 'revive-pay_1', razorpayPaymentId: 'pay_1' } });
      // placed once: a repeat of the payment changes nothing, a second revival is refused
      given([created, ...exp, ...events])
        .when(verify())
        .then([]);
      given([created, ...exp, ...events])
        .when(revive('pay_2'))
        .then(PaymentAfterExpiryError);
    }
    // a hold that lapsed (the clock ended it) is refunded, never placed again
    given([created, ...ended('lapsed')])
      .when(revive())
      .then(PaymentAfterExpiryError);
  });
  it('never places a payment again once its refund is due', () => {
    const exp = ended('cancelled');
    const due = given([created, ...exp])
      .when({
        type: 'RecordRefundDue',
        data: { paymentId: 'pay_1', reason: 'paid_after_expiry', detail: 'x', customerEmail: null, now },
      })
      .events();
    given([created, ...exp, ...due])
      .when(revive())
      .then(PaymentRefundDueError);
  });
  it('the dialog opening moves the expiry of an unpaid order later, never earlier; a paid or ended one is left alone', () => {
    const expiresAt = new Date(now.getTime() + 1_800_000).toISOString();
    given([created])
      .when({ type: 'OpenPaymentDialog', data: { expiresAt: created.data.expiresAt, now } })
      .then([]);
    const [opened] = given([created]).when({ type: 'OpenPaymentDialog', data: { expiresAt, now } }).events();
    expect(opened).toMatchObject({ type: 'PaymentDialogOpened', data: { razorpayOrderId: 'order_1', expiresAt } });
    const state = [created, opened!].reduce(evolvePayment, initialPaymentState());
    expect('order' in state && state.order.expiresAt).toBe(expiresAt);
    given([created, ...ended('cancelled')])
      .when({ type: 'OpenPaymentDialog', data: { expiresAt, now } })
      .then([]);
    given([created, opened!]).when({ type: 'OpenPaymentDialog', data: { expiresAt, now } }).then([]);
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
  const expired = () => [created, ...given([created]).when({ type: 'ExpirePaymentOrder', data: { now } }).events()];

  it("records a refund due for a late payment once, for the order's amount and buyer", () => {
    const due = given(expired()).when(refundDue()).events();
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
    given([...expired(), ...due])
      .when(refundDue())
      .then([]);
  });

  it('records the refund once, and only for a refund that is due', () => {
    given(expired()).when(refunded()).then('No refund is due for this payment');
    const due = given(expired()).when(refundDue()).events();
    const done = given([...expired(), ...due])
      .when(refunded())
      .events();
    expect(done).toMatchObject([
      { type: 'PaymentRefunded', data: { razorpayPaymentId: 'pay_late', refundId: 'rfnd_1', amountPaise: 99800 } },
    ]);
    given([...expired(), ...due, ...done])
      .when(refunded())
      .then([]);
    expect(given([...expired(), ...due, ...done]).state()).toMatchObject({ refunds: { pay_late: 'refunded' } });
  });

  it('never verifies a payment that is being refunded, and never refunds the payment that placed the order', () => {
    const opened = openedOrder({ razorpayOrderId: 'order_2', amountPaise: 100 });
    const due = given([opened])
      .when({ ...refundDue('pay_1'), data: { ...refundDue('pay_1').data, customerEmail: 'g@x.in' } })
      .events();
    expect(due).toMatchObject([{ data: { amountPaise: 100, customerEmail: 'g@x.in' } }]);
    given([opened, ...due])
      .when(verify('pay_1'))
      .then(PaymentRefundDueError);

    const paid = given([created]).when(verify('pay_1')).events();
    given([created, ...paid])
      .when(refundDue('pay_1'))
      .then('placed the order');
  });
});
