import { env } from '@/config/env';
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

export type ConfirmationStreamHandlers = {
  /** The stream is open: the order comes down it once it is placed. */
  onReady?: () => void;
  /** The `order` event's data (JSON-parsed): the order, placed and listed. The stream then ends. */
  onOrder: (data: unknown) => void;
  /** The stream was refused, dropped, or ended without the order: the caller reads the order by itself. */
  onFailed: () => void;
};

/** The events of a Server-Sent Events body as they arrive (comments and `retry:` skipped). */
async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<{ event: string; data: string }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length > 0) yield { event, data: data.join('\n') };
    }
  }
}

/**
 * Follows one order being placed by its confirmation link's token: POST /orders/confirmation/stream, read
 * as Server-Sent Events with fetch (EventSource cannot send a body, and the token must stay out of URLs).
 * The server sends `ready`, then `order` once the order is placed and listed, and ends the stream. Nothing
 * is retried here: on any failure the caller falls back to reading the order again. Returns the closer.
 */
export function followOrderConfirmation(token: string, handlers: ConfirmationStreamHandlers): () => void {
  const abort = new AbortController();
  void (async () => {
    try {
      const answer = await fetch(`${env.apiUrl}/orders/confirmation/stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ token }),
        signal: abort.signal,
      });
      if (!answer.ok || !answer.body) return handlers.onFailed();
      for await (const { event, data } of sseEvents(answer.body)) {
        if (event === 'ready') handlers.onReady?.();
        else if (event === 'order') {
          const order = JSON.parse(data) as unknown;
          abort.abort();
          return handlers.onOrder(order);
        }
      }
      if (!abort.signal.aborted) handlers.onFailed();
    } catch {
      if (!abort.signal.aborted) handlers.onFailed();
    }
  })();
  return () => abort.abort();
}
