import { z } from 'zod';
import { route, type RouteSpec } from '@shop/shared/http/route-table';
import { AddressChangesBody, IdParam as AddressIdParam, NewAddressBody } from './addresses/api.ts';
import { CouponBody, IdParam as CouponIdParam, ValidateBody } from './coupons/api.ts';
import { CalculateBody, SettingsBody } from './delivery/api.ts';
import { CheckoutCallBody, CreateOrderBody, VerifyBody } from './payment/api.ts';
import { CHECKOUT_HISTORY_ROUTES } from './history/history-api.ts';

const service = 'checkout';

/**
 * What the webhook reads of a provider event (the handler checks the signature over the raw body, then
 * reads these fields as they come).
 */
const WebhookBody = z.looseObject({
  event: z.string().optional(),
  payload: z
    .looseObject({
      payment: z.looseObject({ entity: z.looseObject({}).optional() }).optional(),
      order: z.looseObject({ entity: z.looseObject({}).optional() }).optional(),
    })
    .optional(),
});

const ADMIN = { 401: 'Not signed in', 403: 'Not an admin' } as const;

/** Every route the checkout service mounts. */
export const CHECKOUT_ROUTES: RouteSpec[] = [
  route({
    method: 'get',
    path: '/api/delivery/settings',
    auth: 'public',
    service,
    summary: 'Delivery settings (amounts in rupees)',
    responses: {
      200: '{isEnabled, freeShippingThreshold, shippingCharge, freeDeliveryThreshold, deliveryCharge, description}',
    },
  }),
  route({
    method: 'put',
    path: '/api/delivery/settings',
    auth: 'admin',
    service,
    summary: 'Change delivery settings (fields left out keep their value)',
    body: SettingsBody,
    responses: {
      200: '{message, ...settings}',
      400: 'Bad input (names the field)',
      ...ADMIN,
      503: 'Saved but not yet readable',
    },
  }),
  route({
    method: 'post',
    path: '/api/delivery/calculate',
    auth: 'public',
    service,
    summary: 'Delivery and shipping charges for an order total',
    body: CalculateBody,
    responses: { 200: '{deliveryCharge, shippingCharge, isFreeDelivery}', 400: 'Bad order total' },
  }),
  route({
    method: 'get',
    path: '/api/coupons',
    auth: 'admin',
    service,
    summary: 'Every coupon with usedCount and derived status',
    responses: { 200: 'List of coupons', ...ADMIN },
  }),
  route({
    method: 'post',
    path: '/api/coupons/validate',
    auth: 'public',
    service,
    summary: 'Check a coupon code against an order total',
    body: ValidateBody,
    responses: {
      200: '{valid, coupon, discountAmount, message}',
      400: 'Please enter a coupon code; bad order total',
      429: 'Too many coupon attempts',
    },
  }),
  route({
    method: 'post',
    path: '/api/coupons',
    auth: 'admin',
    service,
    summary: 'Create a coupon',
    body: CouponBody,
    responses: {
      201: '{message, ...coupon}',
      400: 'Bad input (names the field)',
      ...ADMIN,
      409: 'Coupon code already exists',
      503: 'Saved but not yet readable',
    },
  }),
  route({
    method: 'put',
    path: '/api/coupons/:id',
    auth: 'admin',
    service,
    summary: 'Change a coupon',
    params: CouponIdParam,
    body: CouponBody,
    responses: {
      200: '{message, ...coupon}',
      400: 'Bad input (names the field)',
      ...ADMIN,
      404: 'Coupon not found',
      409: 'Coupon code already exists',
      503: 'Saved but not yet readable',
    },
  }),
  route({
    method: 'delete',
    path: '/api/coupons/:id',
    auth: 'admin',
    service,
    summary: 'Delete a coupon',
    params: CouponIdParam,
    responses: {
      200: '{message, id}',
      400: 'Bad coupon id',
      ...ADMIN,
      404: 'Coupon not found',
      503: 'Deleted but the list has not caught up',
    },
  }),
  route({
    method: 'get',
    path: '/api/addresses',
    auth: 'user',
    service,
    summary: "The signed-in user's saved addresses",
    owned: true,
    responses: { 200: 'List of addresses', 401: 'Not signed in' },
  }),
  route({
    method: 'post',
    path: '/api/addresses',
    auth: 'user',
    service,
    summary: 'Save an address (the first is the default)',
    owned: true,
    body: NewAddressBody,
    responses: {
      201: '{message, ...address}',
      400: 'Bad input (names the field); at most the allowed number of addresses',
      401: 'Not signed in',
      503: 'Saved but not yet readable',
    },
  }),
  route({
    method: 'put',
    path: '/api/addresses/:id',
    auth: 'user',
    service,
    summary: 'Change one of your saved addresses',
    owned: true,
    params: AddressIdParam,
    body: AddressChangesBody,
    responses: {
      200: '{message, ...address}',
      400: 'Bad input (names the field)',
      401: 'Not signed in',
      404: 'Address not found',
      503: 'Saved but not yet readable',
    },
  }),
  route({
    method: 'delete',
    path: '/api/addresses/:id',
    auth: 'user',
    service,
    summary: 'Delete one of your saved addresses',
    owned: true,
    params: AddressIdParam,
    responses: {
      200: '{message, id}',
      400: 'Bad address id',
      401: 'Not signed in',
      404: 'Address not found',
      503: 'Deleted but not yet readable',
    },
  }),
  route({
    method: 'post',
    path: '/api/payment/create-order',
    auth: 'public',
    service,
    summary: 'Open a payment: hold stock, price the cart and open a provider order (token optional)',
    body: CreateOrderBody,
    responses: {
      201: '{id, amount (paise), currency, receipt, key_id}',
      400: 'Bad input; cart empty; required fields missing; too many units of one product, or in all (MAX_UNITS_PER_CHECKOUT), or too many products (MAX_PRODUCTS_PER_CHECKOUT)',
      409: '{title, message}: stock or a coupon refuses',
      429: 'Too many payment attempts, or too many live checkouts (per buyer, or per client address)',
      503: 'The payment provider or the inventory is unavailable',
    },
  }),
  route({
    method: 'post',
    path: '/api/payment/verify',
    auth: 'public',
    service,
    // Not `owned`: guests pay too; what authorises it is the provider's signature, not an account.
    summary: 'Verify a payment signature and place the order',
    body: VerifyBody,
    responses: {
      200: '{success, message, orderNumber}',
      202: '{success, message, orderNumber: null}: paid, the order shows in My Orders shortly',
      400: 'Payment verification failed',
      409: 'The payment conflicts with its order (expired, or another cart)',
      429: 'Too many payment attempts',
      503: 'Unavailable, please retry',
    },
  }),
  route({
    method: 'post',
    path: '/api/payment/cancel',
    auth: 'public',
    service,
    // Not `owned`: guests cancel too; what authorises it is the buyer key (account or signed guest cookie)
    // recorded on the payment order when it was created.
    summary:
      "Cancel your unpaid checkout (payment dialog dismissed or payment failed): its stock, coupon use and checkout place go back at once; a payment that completed meanwhile becomes the order",
    body: CheckoutCallBody,
    responses: {
      200: '{razorpay_order_id, status: cancelled | paid}',
      400: 'Bad input',
      403: 'This checkout belongs to another buyer',
      404: 'Payment order not found',
      429: 'Too many payment attempts',
      503: 'The payment provider is unavailable, please retry',
    },
  }),
  route({
    method: 'post',
    path: '/api/payment/dialog-opened',
    auth: 'public',
    service,
    summary:
      'Your payment dialog is opening: the checkout holds its stock for the full reservation time (RESERVATION_TTL_SECONDS) instead of HOLD_BEFORE_DIALOG_SECONDS',
    body: CheckoutCallBody,
    responses: {
      200: '{razorpay_order_id, expiresAt}',
      400: 'Bad input',
      403: 'This checkout belongs to another buyer',
      404: 'Payment order not found',
      429: 'Too many payment attempts',
    },
  }),
  route({
    method: 'post',
    path: '/api/payment/webhook',
    auth: 'signed',
    service,
    summary: 'Razorpay webhook, signed with RAZORPAY_WEBHOOK_SECRET over the raw body',
    body: WebhookBody,
    responses: {
      200: '{status: recorded | ignored | duplicate | refund_due}',
      400: 'Invalid webhook signature',
      503: 'Webhooks are not configured, or this event is still being processed by another delivery',
    },
  }),
  route({
    method: 'get',
    path: '/api/payment/admin/refunds',
    auth: 'admin',
    service,
    summary: 'Refunds of payments that could not become an order, newest first (amounts in rupees)',
    responses: {
      200: '[{razorpayPaymentId, razorpayOrderId, customerEmail, amount, reason, detail, status, refundId, dueAt, refundedAt, attempts, lastError}]',
      ...ADMIN,
    },
  }),
  ...CHECKOUT_HISTORY_ROUTES,
];
