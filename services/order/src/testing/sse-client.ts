/** One Server-Sent Event as received. */
export interface ReceivedEvent {
  event: string;
  data: string;
  json<T = unknown>(): T;
}

export interface EventStreamReader {
  status: number;
  headers: Headers;
  /** The body when the server refused the stream (status other than 200). */
  refusal: string;
  /** Events received so far, in order. */
  events: ReceivedEvent[];
  /** Comment lines received so far (heartbeats), without the leading colon. */
  comments: string[];
  /** `retry:` value last received, in ms. */
  retryMs: number | undefined;
  /** The server ended the stream. */
  ended: boolean;
  /** The first event (from the start of the stream) matching `match`, waiting up to timeoutMs for it. */
  waitFor(match: (e: ReceivedEvent) => boolean, what: string, timeoutMs?: number): Promise<ReceivedEvent>;
  /** Resolves once `check` holds on what has been received, or rejects at the deadline. */
  waitUntil(check: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  close(): void;
}

/**
 * Reads an SSE endpoint with fetch and a stream reader, as a browser's EventSource would see it; with `body`,
 * a POST of that JSON (a stream whose credential travels in the body).
 */
export async function openEventStream(
  url: string,
  opts: { token?: string; body?: unknown } = {},
): Promise<EventStreamReader> {
  const abort = new AbortController();
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, {
    method: opts.body !== undefined ? 'POST' : 'GET',
    headers,
    body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
    signal: abort.signal,
  });
  const listeners = new Set<() => void>();
  const reader: EventStreamReader = {
    status: res.status,
    headers: res.headers,
    refusal: '',
    events: [],
    comments: [],
    retryMs: undefined,
    ended: false,
    async waitFor(match, what, timeoutMs = 5000) {
      let found: ReceivedEvent | undefined;
      await reader.waitUntil(() => (found = reader.events.find(match)) !== undefined, what, timeoutMs);
      return found!;
    },
    waitUntil(check, what, timeoutMs = 5000) {
      return new Promise<void>((resolve, reject) => {
        const listener = () => {
          if (!check()) return;
          finish();
          resolve();
        };
        const timer = setTimeout(() => {
          finish();
          reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${what}; got ${describe(reader)}`));
        }, timeoutMs);
        const finish = () => {
          clearTimeout(timer);
          listeners.delete(listener);
        };
        listeners.add(listener);
        listener();
      });
    },
    close: () => abort.abort(),
  };
  if (res.status !== 200 || !res.body) {
    reader.refusal = await res.text();
    return reader;
  }
  void (async () => {
    const decoder = new TextDecoderStream();
    let buffer = '';
    try {
      for await (const chunk of res.body!.pipeThrough(decoder)) {
        buffer += chunk.replace(/\r\n?/g, '\n');
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          parseBlock(reader, buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
        for (const l of [...listeners]) l();
      }
      reader.ended = true;
      for (const l of [...listeners]) l();
    } catch {
      // aborted by close()
    }
  })();
  return reader;
}

function parseBlock(reader: EventStreamReader, block: string): void {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) reader.comments.push(line.slice(1).trim());
    else if (line.startsWith('event:')) event = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    else if (line.startsWith('retry:')) reader.retryMs = Number(line.slice(6).trim());
  }
  if (data.length === 0) return;
  const text = data.join('\n');
  reader.events.push({ event, data: text, json: <T>() => JSON.parse(text) as T });
}

function describe(reader: EventStreamReader): string {
  return JSON.stringify(reader.events.map((e) => `${e.event} ${e.data.slice(0, 120)}`));
}
