import { useEffect, useState } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { openOrderStream } from '@/lib/order-stream';
import { applyOrderChange, readOrderChange } from '@/types/order';
import { ordersApi } from '../api/orders-api';

export type StreamState = 'connecting' | 'live' | 'reconnecting';

/**
 * Keeps the cached own-orders list live from the push stream (openOrderStream). After each `ready` (first
 * connect and every reconnect) the list is refetched, so nothing committed while disconnected is missed;
 * each `order` event then updates the cached list in place. When the stream is refused the list is read too,
 * which logs a refused token out (the 401 rule).
 */
export function useMyOrdersStream(): StreamState {
  const dispatch = useAppDispatch();
  const token = useAppSelector((state) => state.session.token);
  const [state, setState] = useState<StreamState>('connecting');

  useEffect(() => {
    const refetchList = () =>
      void dispatch(ordersApi.endpoints.getMyOrders.initiate(undefined, { forceRefetch: true, subscribe: false }));
    return openOrderStream(token, {
      onReady: () => {
        setState('live');
        refetchList();
      },
      onOrder: (data) => {
        const change = readOrderChange(data);
        if (!change) return;
        dispatch(
          ordersApi.util.updateQueryData('getMyOrders', undefined, (orders) => applyOrderChange(orders, change)),
        );
      },
      onError: () => setState('reconnecting'),
      onRefused: refetchList,
    });
  }, [dispatch, token]);

  return state;
}
