import { useEffect, useState } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { orderStreamUrl } from '@/lib/stream-ticket';
import { ordersApi } from '../api/orders-api';
import { applyOrderChange, parseOrderChange } from '../order-schema';

/** How long to wait before opening a stream the server refused (EventSource does not retry those). */
const GIVE_UP_RETRY_MS = 10_000;

export type StreamState = 'connecting' | 'live' | 'reconnecting';

/**
 * Keeps the cached own-orders list live from the push stream (GET /api/orders/stream, Server-Sent Events).
 * Each connection is opened with a fresh 60-second ticket (orderStreamUrl), never the token itself. After
 * each `ready` (first connect and every reconnect) the list is refetched, so nothing committed while
 * disconnected is missed; each `order` event then updates the cached list in place. EventSource reconnects
 * by itself after a dropped connection (with its old ticket: refused once that has expired); a refused
 * stream, or a refused ticket, is opened again here with a new ticket.
 */
export function useMyOrdersStream(): StreamState {
  const dispatch = useAppDispatch();
  const token = useAppSelector((state) => state.session.token);
  const [state, setState] = useState<StreamState>('connecting');

  useEffect(() => {
    if (!token || typeof EventSource === 'undefined') return;
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let closed = false;
    const refetchList = () =>
      void dispatch(ordersApi.endpoints.getMyOrders.initiate(undefined, { forceRefetch: true, subscribe: false }));

    const giveUpAndRetry = () => {
      // Read the list, which logs a refused token out (the 401 rule), and try the stream again later.
      refetchList();
      retry = setTimeout(() => void connect(), GIVE_UP_RETRY_MS);
    };
    const connect = async () => {
      let url: string;
      try {
        url = await orderStreamUrl(token);
      } catch {
        if (!closed) giveUpAndRetry();
        return;
      }
      if (closed) return;
      source = new EventSource(url);
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
        // EventSource gives up on a refused stream (401 for an expired ticket, 429).
        if (source?.readyState === EventSource.CLOSED) giveUpAndRetry();
      });
    };
    void connect();
    return () => {
      closed = true;
      clearTimeout(retry);
      source?.close();
    };
  }, [dispatch, token]);

  return state;
}
