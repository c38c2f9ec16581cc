import { useEffect, useState } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { env } from '@/config/env';
import { ordersApi } from '../api/orders-api';
import { applyOrderChange, parseOrderChange } from '../order-schema';

/** How long to wait before opening a stream the server refused (EventSource does not retry those). */
const GIVE_UP_RETRY_MS = 10_000;

export type StreamState = 'connecting' | 'live' | 'reconnecting';

/**
 * Keeps the cached own-orders list live from the push stream (GET /api/orders/stream, Server-Sent Events).
 * EventSource cannot send headers, so the token goes in ?access_token=. After each `ready` (first connect
 * and every reconnect) the list is refetched, so nothing committed while disconnected is missed; each
 * `order` event then updates the cached list in place. EventSource reconnects by itself after a dropped
 * connection; a refused one is opened again here.
 */
export function useMyOrdersStream(): StreamState {
  const dispatch = useAppDispatch();
  const token = useAppSelector((state) => state.session.token);
  const [state, setState] = useState<StreamState>('connecting');

  useEffect(() => {
    if (!token || typeof EventSource === 'undefined') return;
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const refetchList = () =>
      void dispatch(ordersApi.endpoints.getMyOrders.initiate(undefined, { forceRefetch: true, subscribe: false }));

    const connect = () => {
      source = new EventSource(`${env.apiUrl}/orders/stream?access_token=${encodeURIComponent(token)}`);
      source.addEventListener('ready', () => {
        setState('live');
        refetchList();
      });
      source.addEventListener('order', (event: MessageEvent<string>) => {
        const change = parseOrderChange(event.data);
        if (!change) return;
        dispatch(
          ordersApi.util.updateQueryData('getMyOrders', undefined, (orders) => applyOrderChange(orders, change)),
        );
      });
      source.addEventListener('error', () => {
        setState('reconnecting');
        // EventSource gives up on a refused stream (401, 429): read the list, which logs a refused token
        // out (the 401 rule), and try the stream again a little later.
        if (source?.readyState === EventSource.CLOSED) {
          refetchList();
          retry = setTimeout(connect, GIVE_UP_RETRY_MS);
        }
      });
    };
    connect();
    return () => {
      clearTimeout(retry);
      source?.close();
    };
  }, [dispatch, token]);

  return state;
}
