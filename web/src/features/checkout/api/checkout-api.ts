import { z } from 'zod';
import { api, parseAnswer } from '@/lib/api-client';
import { productSchema, type Product } from '@/types/api';
import { figureOrZero } from '@/types/fields';

// The calls checkout makes (seed 000 section 7): coupon validation, the product re-check before paying, and
// the payment order and its verification (its saved addresses: lib/addresses-api).

const couponValidationSchema = z.object({
  valid: z.boolean(),
  coupon: z.object({ code: z.string() }).nullish(),
  discountAmount: figureOrZero,
  message: z.string().nullish(),
});
export type CouponValidation = z.infer<typeof couponValidationSchema>;

/** The order create payload (seed 000 section 3), sent with create-order and verify. */
export type OrderData = {
  address: string;
  /** The subtotal. */
  totalAmount: number;
  items: { productId: Product['id']; quantity: number; size: string | null; color: string | null }[];
  customerName: string;
  customerPhone: string;
  customerEmail: string;
  pincode: string;
  couponCode: string | null;
  discountAmount: number;
  shippingCharge: number;
  deliveryCharge: number;
};

const paymentOrderSchema = z.object({
  id: z.string(),
  /** Paise. */
  amount: z.coerce.number(),
  currency: z.string().catch('INR'),
  receipt: z.string().nullish(),
  key_id: z.string(),
});
export type PaymentOrder = z.infer<typeof paymentOrderSchema>;

export type PaymentResponse = { razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string };

const verifyAnswerSchema = z.object({
  success: z.boolean(),
  message: z.string().nullish(),
  orderNumber: z.string().nullish(),
  /** The token of the order's confirmation link (also while the order is being placed). */
  orderToken: z.string().nullish(),
});
export type VerifyAnswer = z.infer<typeof verifyAnswerSchema>;

export const checkoutApi = api.injectEndpoints({
  endpoints: (build) => ({
    validateCoupon: build.mutation<CouponValidation, { code: string; orderTotal: number }>({
      query: (body) => ({ url: '/coupons/validate', method: 'POST', body }),
      transformResponse: (raw: unknown) => parseAnswer(couponValidationSchema, raw),
    }),
    /** A fresh read of one product for the pre-payment check: never answered from the cache. */
    recheckProduct: build.mutation<Product, string>({
      query: (productId) => `/products/${encodeURIComponent(productId)}`,
      transformResponse: (raw: unknown) => parseAnswer(productSchema, raw),
    }),
    createPaymentOrder: build.mutation<
      PaymentOrder,
      { amount: number; currency: 'INR'; receipt: string; orderData: OrderData }
    >({
      query: (body) => ({ url: '/payment/create-order', method: 'POST', body }),
      transformResponse: (raw: unknown) => parseAnswer(paymentOrderSchema, raw),
    }),
    verifyPayment: build.mutation<VerifyAnswer, PaymentResponse & { orderData: OrderData }>({
      query: (body) => ({ url: '/payment/verify', method: 'POST', body }),
      transformResponse: (raw: unknown) => parseAnswer(verifyAnswerSchema, raw),
      // A placed order changes the buyer's orders, stock, a coupon's uses and the dashboard figures.
      invalidatesTags: ['Order', 'Product', 'Coupon', 'Stats'],
    }),
    /**
     * The dialog was dismissed or the payment failed: the checkout's stock and coupon go back at once, so
     * Pay works again straight away (a payment that went through meanwhile still becomes the order).
     */
    cancelPayment: build.mutation<void, { razorpay_order_id: string }>({
      query: (body) => ({ url: '/payment/cancel', method: 'POST', body }),
      // The stock shown for the cart's products changes.
      invalidatesTags: ['Product'],
    }),
    /** Right before the dialog opens: the server holds the stock for the full payment time from then. */
    openPaymentDialog: build.mutation<{ razorpay_order_id: string; expiresAt: string }, { razorpay_order_id: string }>({
      query: (body) => ({ url: '/payment/dialog-opened', method: 'POST', body }),
    }),
  }),
});

export const {
  useValidateCouponMutation,
  useRecheckProductMutation,
  useCreatePaymentOrderMutation,
  useVerifyPaymentMutation,
  useCancelPaymentMutation,
  useOpenPaymentDialogMutation,
} = checkoutApi;
