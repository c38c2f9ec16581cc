import { route, type RouteSpec } from '@shop/shared/http/route-table';
import { OrderNumberParam, StatusBody } from './api.ts';
import { ConfirmationBody } from './confirmation/order-confirmation-api.ts';
import { OrderOfPaymentBody } from './placement/order-placement-api.ts';

const service = 'order';

const ADMIN = { 401: 'Not signed in', 403: 'Not an admin' } as const;

/** Every route the order service mounts (/internal/orders/* only in its own process). */
export const ORDER_ROUTES: RouteSpec[] = [
  route({
    method: 'get',
    path: '/api/orders',
    auth: 'user',
    service,
    summary: "The signed-in user's orders, newest first",
    owned: true,
    responses: { 200: 'List of orders', 401: 'Not signed in' },
  }),
  route({
    method: 'get',
    path: '/api/orders/stream',
    auth: 'user',
    service,
    summary:
      'Server-Sent Events: ready, then order (own orders; every order for admins) and stats (admins); signed in by ?ticket= (POST /api/orders/stream-ticket), or the bearer header',
    owned: true,
    stream: true,
    responses: { 200: 'An event stream', 401: 'Not signed in', 429: 'Too many open streams for this account' },
  }),
  route({
    method: 'post',
    path: '/api/orders/stream-ticket',
    auth: 'user',
    service,
    summary:
      'A ticket for the push stream ({ticket, expiresIn: 60}): opens GET /api/orders/stream?ticket= within 60 seconds, good for nothing else',
    responses: { 200: '{ticket, expiresIn}', 401: 'Not signed in' },
  }),
  route({
    method: 'post',
    path: '/api/orders/confirmation',
    auth: 'public',
    service,
    summary:
      "One order read by its confirmation link's token (the buyer's, from verify; no sign-in): the order's page for guests too",
    body: ConfirmationBody,
    responses: {
      200: 'The order (as in the own-orders list, less seen and User)',
      202: '{orderNumber: null, message}: paid, the order is being placed',
      400: 'Bad input',
      404: 'Order not found (also for a token the shop did not sign)',
    },
  }),
  route({
    method: 'get',
    path: '/api/orders/admin/all',
    auth: 'admin',
    service,
    summary: 'Every order',
    responses: { 200: 'List of orders', ...ADMIN },
  }),
  route({
    method: 'get',
    path: '/api/orders/admin/stats',
    auth: 'admin',
    service,
    summary: 'Dashboard figures (rupees; 30 India-time days of revenue)',
    responses: { 200: '{totalOrders, totalRevenue, ordersByStatus, unseenOrders, revenueByDay, ...}', ...ADMIN },
  }),
  route({
    method: 'get',
    path: '/api/orders/admin/:orderNumber/history',
    auth: 'admin',
    service,
    summary: "An order's events in log order (payment, stock reservation, order) for the admin timeline",
    params: OrderNumberParam,
    responses: { 200: '{orderNumber, events}', 400: 'Bad order number', ...ADMIN, 404: 'Order not found' },
  }),
  route({
    method: 'patch',
    path: '/api/orders/admin/:orderNumber/status',
    auth: 'admin',
    service,
    summary: "Change an order's delivery status",
    params: OrderNumberParam,
    body: StatusBody,
    responses: {
      200: '{message, ...order}',
      400: 'deliveryStatus must be Processing, Out for Delivery or Delivered',
      ...ADMIN,
      404: 'Order not found',
      503: 'Saved but not yet readable',
    },
  }),
  route({
    method: 'patch',
    path: '/api/orders/admin/:orderNumber/seen',
    auth: 'admin',
    service,
    summary: 'Mark an order as seen',
    params: OrderNumberParam,
    responses: {
      200: '{message, ...order}',
      400: 'Bad order number',
      ...ADMIN,
      404: 'Order not found',
      503: 'Saved but not yet readable',
    },
  }),
  route({
    method: 'delete',
    path: '/api/orders/admin/:orderNumber',
    auth: 'admin',
    service,
    summary: 'Delete a delivered order',
    params: OrderNumberParam,
    responses: {
      200: '{message, orderNumber}',
      400: 'Bad order number',
      ...ADMIN,
      404: 'Order not found',
      409: 'Only delivered orders can be deleted',
      503: 'Deleted but not yet readable',
    },
  }),
  route({
    method: 'post',
    path: '/internal/orders/order-of-payment',
    auth: 'service',
    service,
    summary: 'Which order a verified payment became, waiting up to 10 s (service token)',
    body: OrderOfPaymentBody,
    responses: {
      200: '{orderNumber} (null if not placed within the wait)',
      400: 'Bad input',
      401: 'Service token required',
      403: 'Internal route',
    },
  }),
];
