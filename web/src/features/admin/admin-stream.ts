import { readStoredText, storageKeys } from '@/lib/storage';
import { orderStreamUrl } from '@/lib/stream-ticket';

/** How long to wait before opening again a stream (or ticket) the server refused. */
const REFUSED_RETRY_MS = 10_000;

type StreamHandlers = {
  /** The stream (re)connected; after a reconnect the caller should refetch what it may have missed. */
  onReady?: (reconnected: boolean) => void;
  onOrder?: (data: unknown) => void;
  onStats?: (data: unknown) => void;
};

function readJson(event: MessageEvent): unknown {
  try {
    return JSON.parse(String(event.data)) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Opens the push stream (GET /orders/stream, Server-Sent Events) with a 60-second ticket
 * (orderStreamUrl), never the token itself. The browser reconnects a dropped stream by itself; one it
 * refuses (its ticket expired) is opened again here with a new ticket. Returns the closer.
 */
export function openAdminStream(handlers: StreamHandlers): () => void {
  const token = readStoredText(storageKeys.token);
  if (typeof EventSource === 'undefined' || !token) return () => undefined;
  let source: EventSource | null = null;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  let readyCount = 0;
  const retryLater = () => {
    if (!closed) retry = setTimeout(() => void connect(), REFUSED_RETRY_MS);
  };
  const connect = async () => {
    let url: string;
    try {
      url = await orderStreamUrl(token);
    } catch {
      return retryLater();
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
      if (source?.readyState === EventSource.CLOSED) retryLater();
    });
  };
  void connect();
  return () => {
    closed = true;
    clearTimeout(retry);
    source?.close();
  };
}
