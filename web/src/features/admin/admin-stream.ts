import { env } from '@/config/env';
import { readStoredText, storageKeys } from '@/lib/storage';

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
 * Opens the push stream (GET /orders/stream, Server-Sent Events). EventSource cannot send headers, so
 * the token travels as ?access_token=. The browser reconnects by itself; returns the closer.
 */
export function openAdminStream(handlers: StreamHandlers): () => void {
  const token = readStoredText(storageKeys.token);
  if (typeof EventSource === 'undefined' || !token) return () => undefined;
  const source = new EventSource(`${env.apiUrl}/orders/stream?access_token=${encodeURIComponent(token)}`);
  let readyCount = 0;
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
  return () => source.close();
}
