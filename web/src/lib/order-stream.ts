import { orderStreamUrl } from './stream-ticket';

/** How long to wait before opening again a stream (or ticket) the server refused. */
const REFUSED_RETRY_MS = 10_000;

export type OrderStreamHandlers = {
  /** The stream (re)connected; after a reconnect the caller should refetch what it may have missed. */
  onReady?: (reconnected: boolean) => void;
  /** An `order` event's data (JSON-parsed; unreadable events are skipped). */
  onOrder?: (data: unknown) => void;
  /** A `stats` event's data (JSON-parsed). */
  onStats?: (data: unknown) => void;
  /** The connection dropped or was refused; the browser reconnects a dropped one by itself. */
  onError?: () => void;
  /** The stream or its ticket was refused (an expired ticket, 429): it is opened again later, with a new ticket. */
  onRefused?: () => void;
};

function readJson(event: MessageEvent): unknown {
  try {
    return JSON.parse(String(event.data)) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The web app's one push-stream client: opens GET /orders/stream (Server-Sent Events) for `token`'s session
 * with a 60-second ticket (orderStreamUrl), never the token itself. EventSource reconnects a dropped stream
 * by itself (with its old ticket: refused once that has expired); a refused stream, or a refused ticket, is
 * opened again here with a new ticket. Returns the closer.
 */
export function openOrderStream(token: string | null, handlers: OrderStreamHandlers): () => void {
  if (typeof EventSource === 'undefined' || !token) return () => undefined;
  let source: EventSource | null = null;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  let readyCount = 0;
  const refused = () => {
    if (closed) return;
    handlers.onRefused?.();
    retry = setTimeout(() => void connect(), REFUSED_RETRY_MS);
  };
  const connect = async () => {
    let url: string;
    try {
      url = await orderStreamUrl(token);
    } catch {
      return refused();
    }
    if (closed) return;
    source = new EventSource(url);
    source.addEventListener('ready', () => {
      handlers.onReady?.(readyCount > 0);
      readyCount += 1;
    });
    source.addEventListener('order', (event) => {
      const data = readJson(event);
      if (data !== undefined) handlers.onOrder?.(data);
    });
    source.addEventListener('stats', (event) => {
      const data = readJson(event);
      if (data !== undefined) handlers.onStats?.(data);
    });
    source.addEventListener('error', () => {
      handlers.onError?.();
      // EventSource gives up on a refused stream.
      if (source?.readyState === EventSource.CLOSED) refused();
    });
  };
  void connect();
  return () => {
    closed = true;
    clearTimeout(retry);
    source?.close();
  };
}
