import { api } from '@/lib/api-client';
import { parseOrderList, type Order } from '@/types/order';
import { parseOrderConfirmation, type OrderConfirmation } from '../order-schema';

export const ordersApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The logged-in shopper's own orders, newest first. */
    getMyOrders: build.query<Order[], void>({
      query: () => '/orders',
      transformResponse: (raw: unknown) => parseOrderList(raw),
      providesTags: [{ type: 'Order', id: 'LIST' }],
    }),
    /**
     * One order by its confirmation link's token, for whoever holds the link (no sign-in). A POST so that the
     * token, the link's secret, travels in the body rather than the URL.
     */
    getOrderConfirmation: build.query<OrderConfirmation, string>({
      query: (token) => ({ url: '/orders/confirmation', method: 'POST', body: { token } }),
      transformResponse: (raw: unknown) => parseOrderConfirmation(raw),
    }),
    /** Cancels the shopper's own order (while Processing): it is refunded, the list shows it Cancelled. */
    cancelMyOrder: build.mutation<unknown, string>({
      query: (orderNumber) => ({ url: `/orders/${encodeURIComponent(orderNumber)}/cancel`, method: 'POST' }),
      invalidatesTags: [{ type: 'Order', id: 'LIST' }],
    }),
  }),
});

export const { useGetMyOrdersQuery, useGetOrderConfirmationQuery, useCancelMyOrderMutation } = ordersApi;
