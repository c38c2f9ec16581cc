import { api } from '@/lib/api-client';
import { openOrderStream } from '@/lib/order-stream';
import { readStoredText, storageKeys } from '@/lib/storage';
import { applyOrderChange, parseOrderList, readOrderChange, type Order } from '@/types/order';
import { parseOrderHistory, type HistoryEntry } from '../order-history';
import { orderNumberOfEvent, type SettableDeliveryStatus } from '../orders';

const orderPath = (orderNumber: string) => `/orders/admin/${encodeURIComponent(orderNumber)}`;

/** Tags of one order's history; every open history also carries HISTORY, refetched when the stream reconnects. */
const orderTag = (orderNumber: string) => ({ type: 'Order' as const, id: orderNumber });
const HISTORIES = { type: 'Order' as const, id: 'HISTORY' };

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
        const close = openOrderStream(readStoredText(storageKeys.token), {
          onOrder: (data) => {
            const change = readOrderChange(data);
            if (change) updateCachedData((orders) => applyOrderChange(orders, change));
            // The order changed: an open history of it refetches (its new events are already in the log).
            const orderNumber = orderNumberOfEvent(data);
            if (orderNumber) dispatch(api.util.invalidateTags([orderTag(orderNumber)]));
          },
          // On every (re)connect: refetch, so a change made before the stream was up is not missed.
          onReady: () => dispatch(api.util.invalidateTags([{ type: 'Order', id: 'LIST' }, HISTORIES])),
        });
        await cacheEntryRemoved;
        close();
      },
    }),
    /** An order's events in log order (payment, stock reservation, order), cached per order number. */
    getOrderHistory: build.query<HistoryEntry[], string>({
      query: (orderNumber) => `${orderPath(orderNumber)}/history`,
      transformResponse: (raw: unknown) => parseOrderHistory(raw),
      providesTags: (_result, _error, orderNumber) => [orderTag(orderNumber), HISTORIES],
    }),
    updateOrderStatus: build.mutation<unknown, { orderNumber: string; deliveryStatus: SettableDeliveryStatus }>({
      query: ({ orderNumber, deliveryStatus }) => ({
        url: `${orderPath(orderNumber)}/status`,
        method: 'PATCH',
        body: { deliveryStatus },
      }),
      invalidatesTags: (_result, _error, { orderNumber }) => [
        { type: 'Order', id: 'LIST' },
        orderTag(orderNumber),
        'Stats',
      ],
    }),
    /** Cancels an order not delivered, with the admin's reason: its stock goes back and it is refunded. */
    cancelOrder: build.mutation<unknown, { orderNumber: string; reason: string }>({
      query: ({ orderNumber, reason }) => ({
        url: `${orderPath(orderNumber)}/cancel`,
        method: 'PATCH',
        body: { reason },
      }),
      invalidatesTags: (_result, _error, { orderNumber }) => [
        { type: 'Order', id: 'LIST' },
        orderTag(orderNumber),
        'Stats',
      ],
    }),
    markOrderSeen: build.mutation<unknown, string>({
      query: (orderNumber) => ({ url: `${orderPath(orderNumber)}/seen`, method: 'PATCH' }),
      invalidatesTags: (_result, _error, orderNumber) => [
        { type: 'Order', id: 'LIST' },
        orderTag(orderNumber),
        'Stats',
      ],
    }),
    deleteOrder: build.mutation<unknown, string>({
      query: (orderNumber) => ({ url: orderPath(orderNumber), method: 'DELETE' }),
      invalidatesTags: (_result, _error, orderNumber) => [
        { type: 'Order', id: 'LIST' },
        orderTag(orderNumber),
        'Stats',
      ],
    }),
  }),
});

export const {
  useGetAdminOrdersQuery,
  useGetOrderHistoryQuery,
  useUpdateOrderStatusMutation,
  useCancelOrderMutation,
  useMarkOrderSeenMutation,
  useDeleteOrderMutation,
} = adminOrdersApi;
