import { NotFoundError } from '@shop/shared/errors/errors';

/**
 * The payment provider as checkout sees it: the subset of Razorpay's orders API the purchase saga uses.
 * Field names and units are Razorpay's (amounts in paise, times in unix seconds) so answers pass through
 * unchanged. Failures are AppErrors: UnavailableError when the provider cannot be reached or fails (retry
 * later), ProviderOrderUnknownError when it has no order of that id (asking again will not help),
 * ValidationError when it refuses the request.
 */
export interface PaymentProvider {
  /** Public key id the browser's checkout needs (`key` option of `new Razorpay`). */
  readonly keyId: string;
  createOrder(input: CreateProviderOrder): Promise<ProviderOrder>;
  /** Throws ProviderOrderUnknownError when the provider has no such order. */
  fetchOrder(orderId: string): Promise<ProviderOrder>;
  /** Every payment attempt made against the order, failed ones included. Throws ProviderOrderUnknownError too. */
  fetchPayments(orderId: string): Promise<ProviderPayment[]>;
  /**
   * Refunds `amountPaise` of a captured payment. `receipt` (at most 40 characters) is our reference for
   * the refund, echoed back by fetchRefunds: how a retry finds a refund an earlier attempt already made.
   */
  refund(paymentId: string, amountPaise: number, opts: { receipt: string }): Promise<ProviderRefund>;
  /** The refunds made on a payment, oldest first. */
  fetchRefunds(paymentId: string): Promise<ProviderRefund[]>;
}

export interface ProviderRefund {
  id: string;
  payment_id: string;
  /** Paise. */
  amount: number;
  currency: string;
  receipt: string | null;
  status: 'pending' | 'processed' | 'failed';
  /** Unix seconds. */
  created_at: number;
}

/**
 * The provider says it has no order of this id (Razorpay: 400 BAD_REQUEST_ERROR "The id provided does not
 * exist"). Final, not retriable: nobody can pay an order the provider does not have.
 */
export class ProviderOrderUnknownError extends NotFoundError {
  constructor(
    readonly orderId: string,
    message = 'The id provided does not exist',
  ) {
    super(message);
  }
}

export interface CreateProviderOrder {
  amountPaise: number;
  currency: 'INR';
  /** Our reference, echoed back by the provider (at most 40 characters). */
  receipt: string;
  notes?: Record<string, string>;
}

export type ProviderOrderStatus = 'created' | 'attempted' | 'paid';

export interface ProviderOrder {
  id: string;
  /** Paise. */
  amount: number;
  amount_paid: number;
  amount_due: number;
  currency: string;
  receipt: string | null;
  status: ProviderOrderStatus;
  /** Unix seconds. */
  created_at: number;
}

export type ProviderPaymentStatus = 'created' | 'authorized' | 'captured' | 'failed' | 'refunded';

export interface ProviderPayment {
  id: string;
  order_id: string;
  /** Paise. */
  amount: number;
  currency: string;
  status: ProviderPaymentStatus;
  method: string;
  error_description?: string;
  /** Unix seconds. */
  created_at: number;
}
