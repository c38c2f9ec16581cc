import { randomInt } from 'node:crypto';
import { withTransaction, type Pool, type PoolClient } from '@shop/shared/db/pool';
import { SandboxError } from './razorpay-error.ts';

/** Razorpay's order entity, as the sandbox answers it. Amounts in paise, times in unix seconds. */
export interface SandboxOrder {
  id: string;
  entity: 'order';
  amount: number;
  amount_paid: number;
  amount_due: number;
  currency: 'INR';
  receipt: string | null;
  offer_id: null;
  status: 'created' | 'attempted' | 'paid';
  attempts: number;
  /** Razorpay answers `[]` for an order created without notes. */
  notes: Record<string, string | number> | [];
  created_at: number;
}

/** Razorpay's payment entity (card payments only: the sandbox dialog has no method picker). */
export interface SandboxPayment {
  id: string;
  entity: 'payment';
  amount: number;
  currency: 'INR';
  /** 'refunded' once refunds add up to the whole amount. */
  status: 'captured' | 'failed' | 'refunded';
  order_id: string;
  invoice_id: null;
  international: false;
  method: 'card';
  amount_refunded: number;
  refund_status: null | 'partial' | 'full';
  captured: boolean;
  description: string | null;
  card_id: null;
  bank: null;
  wallet: null;
  vpa: null;
  email: string;
  contact: string;
  notes: [];
  fee: number | null;
  tax: number | null;
  error_code: string | null;
  error_description: string | null;
  error_source: string | null;
  error_step: string | null;
  error_reason: string | null;
  acquirer_data: Record<string, string>;
  created_at: number;
}

/** Razorpay's refund entity (always processed at once in the sandbox). */
export interface SandboxRefund {
  id: string;
  entity: 'refund';
  amount: number;
  currency: 'INR';
  payment_id: string;
  notes: Record<string, string | number> | [];
  receipt: string | null;
  acquirer_data: { arn: null };
  created_at: number;
  batch_id: null;
  status: 'processed';
  speed_processed: 'normal';
  speed_requested: 'normal' | 'optimum';
}

export interface NewRefund {
  /** Paise; unset = whatever is not yet refunded. */
  amount?: number | undefined;
  speed?: 'normal' | 'optimum' | undefined;
  notes?: Record<string, string | number> | undefined;
  receipt?: string | undefined;
}

export interface NewOrder {
  amount: number;
  receipt?: string | undefined;
  notes?: Record<string, string | number> | undefined;
}

export interface Payer {
  email?: string | undefined;
  contact?: string | undefined;
}

/** What the checkout dialog's `payment.failed` callbacks receive (and the fail endpoint answers). */
export interface PaymentFailure {
  error: {
    code: 'BAD_REQUEST_ERROR';
    description: string;
    source: string;
    step: string;
    reason: string;
    metadata: { order_id: string; payment_id: string };
  };
}

const FAILED_DESCRIPTION = 'Payment failed (sandbox)';
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** 14 random alphanumerics, the length of Razorpay's ids. */
export function razorpayId(prefix = ''): string {
  let id = prefix;
  for (let i = 0; i < 14; i++) id += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return id;
}

interface OrderRow {
  id: string;
  amount: bigint | number;
  amount_paid: bigint | number;
  currency: 'INR';
  receipt: string | null;
  status: SandboxOrder['status'];
  attempts: number;
  notes: SandboxOrder['notes'];
  created_at: bigint | number;
}

interface PaymentRow {
  entity: SandboxPayment;
  refunded: bigint | number | string;
}

// The payment as stored (never changed) and what its refunds add up to.
const PAYMENT_COLUMNS =
  'p.entity, (SELECT coalesce(sum(r.amount), 0) FROM razorpay_sandbox.refunds r WHERE r.payment_id = p.id) AS refunded';

/** The stored payment with its refunds applied (Razorpay's amount_refunded, refund_status and status). */
function toPayment(row: PaymentRow): SandboxPayment {
  const refunded = Number(row.refunded);
  const p = row.entity;
  if (refunded === 0) return p;
  const full = refunded >= p.amount;
  return {
    ...p,
    amount_refunded: refunded,
    refund_status: full ? 'full' : 'partial',
    status: full ? 'refunded' : p.status,
  };
}

const ORDER_COLUMNS = 'id, amount, amount_paid, currency, receipt, status, attempts, notes, created_at';

/**
 * The sandbox's orders and payments, in Postgres (schema `razorpay_sandbox`, migrations/009): a restarted
 * sandbox still knows every order it made and every payment taken on it, as Razorpay would. Every answer
 * is a fresh object built from the rows, so callers cannot change what is stored.
 */
export class SandboxLedger {
  constructor(
    private readonly pool: Pool,
    private readonly now: () => Date,
  ) {}

  async createOrder(input: NewOrder): Promise<SandboxOrder> {
    const notes = input.notes && Object.keys(input.notes).length ? { ...input.notes } : [];
    const { rows } = await this.pool.query<OrderRow>(
      `INSERT INTO razorpay_sandbox.orders (id, amount, amount_paid, currency, receipt, status, attempts, notes, created_at)
       VALUES ($1, $2, 0, 'INR', $3, 'created', 0, $4, $5) RETURNING ${ORDER_COLUMNS}`,
      [razorpayId('order_'), input.amount, input.receipt ?? null, JSON.stringify(notes), this.unixNow()],
    );
    return toOrder(rows[0]!);
  }

  async order(id: string): Promise<SandboxOrder> {
    return toOrder(await this.findOrder(this.pool, id));
  }

  async paymentsOf(orderId: string): Promise<SandboxPayment[]> {
    await this.findOrder(this.pool, orderId);
    const { rows } = await this.pool.query<PaymentRow>(
      `SELECT ${PAYMENT_COLUMNS} FROM razorpay_sandbox.payments p WHERE order_id = $1 ORDER BY seq`,
      [orderId],
    );
    return rows.map(toPayment);
  }

  async payment(id: string): Promise<SandboxPayment> {
    return toPayment(await this.findPayment(this.pool, id));
  }

  /**
   * Refunds a captured payment (by default what is not yet refunded), as Razorpay does: never more than was
   * captured, never a payment that was not captured. Refunds of one payment are decided one after the other.
   */
  async refund(paymentId: string, input: NewRefund): Promise<SandboxRefund> {
    return withTransaction(this.pool, async (tx) => {
      const payment = toPayment(await this.findPayment(tx, paymentId, 'FOR UPDATE'));
      if (!payment.captured) throw new SandboxError(400, 'The payment has not been captured, so it cannot be refunded');
      const left = payment.amount - payment.amount_refunded;
      if (left <= 0) throw new SandboxError(400, 'The payment has been fully refunded already');
      const amount = input.amount ?? left;
      if (amount > left)
        throw new SandboxError(400, 'The refund amount provided is greater than amount captured', 'amount');
      const refund: SandboxRefund = {
        id: razorpayId('rfnd_'),
        entity: 'refund',
        amount,
        currency: payment.currency,
        payment_id: paymentId,
        notes: input.notes && Object.keys(input.notes).length ? { ...input.notes } : [],
        receipt: input.receipt ?? null,
        acquirer_data: { arn: null },
        created_at: this.unixNow(),
        batch_id: null,
        status: 'processed',
        speed_processed: 'normal',
        speed_requested: input.speed ?? 'normal',
      };
      await tx.query('INSERT INTO razorpay_sandbox.refunds (id, payment_id, amount, entity) VALUES ($1, $2, $3, $4)', [
        refund.id,
        paymentId,
        amount,
        JSON.stringify(refund),
      ]);
      return refund;
    });
  }

  /** A payment's refunds, oldest first. */
  async refundsOf(paymentId: string): Promise<SandboxRefund[]> {
    await this.findPayment(this.pool, paymentId);
    const { rows } = await this.pool.query<{ entity: SandboxRefund }>(
      'SELECT entity FROM razorpay_sandbox.refunds WHERE payment_id = $1 ORDER BY seq',
      [paymentId],
    );
    return rows.map((r) => r.entity);
  }

  private async findPayment(db: Pool | PoolClient, id: string, lock = ''): Promise<PaymentRow> {
    const { rows } = await db.query<PaymentRow>(
      `SELECT ${PAYMENT_COLUMNS} FROM razorpay_sandbox.payments p WHERE id = $1 ${lock}`,
      [id],
    );
    if (!rows[0]) throw new SandboxError(400, 'The id provided does not exist');
    return rows[0];
  }

  /** The shopper pays the whole order by card: a captured payment, and the order is paid. */
  async pay(orderId: string, payer: Payer): Promise<{ order: SandboxOrder; payment: SandboxPayment }> {
    return withTransaction(this.pool, async (tx) => {
      const order = await this.openOrder(tx, orderId);
      const payment = await this.addPayment(tx, order, payer, {
        status: 'captured',
        captured: true,
        fee: 0,
        tax: 0,
        error_code: null,
        error_description: null,
        error_source: null,
        error_step: null,
        error_reason: null,
      });
      const { rows } = await tx.query<OrderRow>(
        `UPDATE razorpay_sandbox.orders SET attempts = attempts + 1, amount_paid = amount, status = 'paid'
         WHERE id = $1 RETURNING ${ORDER_COLUMNS}`,
        [orderId],
      );
      return { order: toOrder(rows[0]!), payment };
    });
  }

  /** The shopper's payment attempt fails; the order stays open for another attempt. */
  async fail(
    orderId: string,
    payer: Payer,
  ): Promise<{ order: SandboxOrder; payment: SandboxPayment; failure: PaymentFailure }> {
    return withTransaction(this.pool, async (tx) => {
      const order = await this.openOrder(tx, orderId);
      const payment = await this.addPayment(tx, order, payer, {
        status: 'failed',
        captured: false,
        fee: null,
        tax: null,
        error_code: 'BAD_REQUEST_ERROR',
        error_description: FAILED_DESCRIPTION,
        error_source: 'customer',
        error_step: 'payment_authentication',
        error_reason: 'payment_failed',
      });
      const { rows } = await tx.query<OrderRow>(
        `UPDATE razorpay_sandbox.orders SET attempts = attempts + 1, status = 'attempted'
         WHERE id = $1 RETURNING ${ORDER_COLUMNS}`,
        [orderId],
      );
      const failure: PaymentFailure = {
        error: {
          code: 'BAD_REQUEST_ERROR',
          description: FAILED_DESCRIPTION,
          source: 'customer',
          step: 'payment_authentication',
          reason: 'payment_failed',
          metadata: { order_id: orderId, payment_id: payment.id },
        },
      };
      return { order: toOrder(rows[0]!), payment, failure };
    });
  }

  /** The order, locked for this transaction: two payments of one order are decided one after the other. */
  private async openOrder(tx: PoolClient, orderId: string): Promise<SandboxOrder> {
    const { rows } = await tx.query<OrderRow>(
      `SELECT ${ORDER_COLUMNS} FROM razorpay_sandbox.orders WHERE id = $1 FOR UPDATE`,
      [orderId],
    );
    if (!rows[0]) throw new SandboxError(404, 'The id provided does not exist');
    const order = toOrder(rows[0]);
    if (order.status === 'paid') throw new SandboxError(400, 'Order has already been paid');
    return order;
  }

  private async findOrder(db: Pool | PoolClient, id: string): Promise<OrderRow> {
    const { rows } = await db.query<OrderRow>(`SELECT ${ORDER_COLUMNS} FROM razorpay_sandbox.orders WHERE id = $1`, [
      id,
    ]);
    // Razorpay answers 400 (not 404) for an id it does not know.
    if (!rows[0]) throw new SandboxError(400, 'The id provided does not exist');
    return rows[0];
  }

  private async addPayment(
    tx: PoolClient,
    order: SandboxOrder,
    payer: Payer,
    outcome: Pick<
      SandboxPayment,
      | 'status'
      | 'captured'
      | 'fee'
      | 'tax'
      | 'error_code'
      | 'error_description'
      | 'error_source'
      | 'error_step'
      | 'error_reason'
    >,
  ): Promise<SandboxPayment> {
    const payment: SandboxPayment = {
      id: razorpayId('pay_'),
      entity: 'payment',
      amount: order.amount,
      currency: order.currency,
      order_id: order.id,
      invoice_id: null,
      international: false,
      method: 'card',
      amount_refunded: 0,
      refund_status: null,
      description: null,
      card_id: null,
      bank: null,
      wallet: null,
      vpa: null,
      email: payer.email ?? 'shopper@example.com',
      contact: payer.contact ?? '+919000090000',
      notes: [],
      acquirer_data: {},
      created_at: this.unixNow(),
      ...outcome,
    };
    await tx.query('INSERT INTO razorpay_sandbox.payments (id, order_id, entity) VALUES ($1, $2, $3)', [
      payment.id,
      order.id,
      JSON.stringify(payment),
    ]);
    return payment;
  }

  private unixNow(): number {
    return Math.floor(this.now().getTime() / 1000);
  }
}

function toOrder(row: OrderRow): SandboxOrder {
  const amount = Number(row.amount);
  const amountPaid = Number(row.amount_paid);
  return {
    id: row.id,
    entity: 'order',
    amount,
    amount_paid: amountPaid,
    amount_due: amount - amountPaid,
    currency: row.currency,
    receipt: row.receipt,
    offer_id: null,
    status: row.status,
    attempts: row.attempts,
    notes: row.notes,
    created_at: Number(row.created_at),
  };
}
