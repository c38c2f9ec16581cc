import { api } from '@/lib/api-client';
import { openAdminStream } from '../admin-stream';
import { applyOrderEvent, parseOrderList, type Order, type SettableDeliveryStatus } from '../orders';

const orderPath = (orderNumber: string) => `/orders/admin/${encodeURIComponent(orderNumber)}`;

export const adminOrdersApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Every order, kept live from the push stream while the screen is open. */
    getAdminOrders: build.query<Order[], void>({
      query: () => '/orders/admin/all',
      transformResponse: (raw: unknown) => parseOrderList(raw),
      providesTags: [{ type: 'Order', id: 'LIST' }],
      // The stream closes soon after the screen does (at most 5 streams per account).
      keepUnusedDataFor: 5,
      async onCacheEntryAdded(_arg, { updateCachedData, cacheDataLoaded, cacheEntryRemoved, dispatch }) {
        try {
          await cacheDataLoaded;
        } catch {
          return;
        }
        const close = openAdminStream({
          onOrder: (data) => updateCachedData((orders) => applyOrderEvent(orders, data)),
          // On every (re)connect: refetch, so a change made before the stream was up is not missed.
          onReady: () => dispatch(api.util.invalidateTags([{ type: 'Order', id: 'LIST' }])),
        });
        await cacheEntryRemoved;
        close();
      },
    }),
    updateOrderStatus: build.mutation<unknown, { orderNumber: string; deliveryStatus: SettableDeliveryStatus }>({
      query: ({ orderNumber, deliveryStatus }) => ({
        url: `${orderPath(orderNumber)}/status`,
        method: 'PATCH',
        body: { deliveryStatus },
      }),
      invalidatesTags: [{ type: 'Order', id: 'LIST' }, 'Stats'],
    }),
    markOrderSeen: build.mutation<unknown, string>({
      query: (orderNumber) => ({ url: `${orderPath(orderNumber)}/seen`, method: 'PATCH' }),
      invalidatesTags: [{ type: 'Order', id: 'LIST' }, 'Stats'],
    }),
    deleteOrder: build.mutation<unknown, string>({
      query: (orderNumber) => ({ url: orderPath(orderNumber), method: 'DELETE' }),
      invalidatesTags: [{ type: 'Order', id: 'LIST' }, 'Stats'],
    }),
  }),
});

export const {
  useGetAdminOrdersQuery,
  useUpdateOrderStatusMutation,
  useMarkOrderSeenMutation,
  useDeleteOrderMutation,
} = adminOrdersApi;
