import { api } from '@/lib/api-client';
import { parseOrderList, type Order } from '../order-schema';

export const ordersApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The logged-in shopper's own orders, newest first. */
    getMyOrders: build.query<Order[], void>({
      query: () => '/orders',
      transformResponse: (raw: unknown) => parseOrderList(raw),
      providesTags: [{ type: 'Order', id: 'LIST' }],
    }),
  }),
});

export const { useGetMyOrdersQuery } = ordersApi;
