import type { HistoryEntry } from '../contracts/event-history.ts';
import { UnavailableError } from '../errors/errors.ts';

/**
 * One history part from the service that owns it (distributed mode): POST `url` with a service token and a
 * JSON body, answered `{events}`. A service that is unreachable, refuses or fails leaves the history
 * unanswerable (503): a part left out would show an order's history with holes in it.
 */
export async function historyPartOverHttp(url: string, serviceToken: string, body: unknown): Promise<HistoryEntry[]> {
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${serviceToken}` },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    text = await res.text();
  } catch (err) {
    throw new UnavailableError('A service holding part of this history is unreachable, please try again', {
      cause: String(err),
    });
  }
  const parsed = (() => {
    try {
      return JSON.parse(text) as { events?: unknown; message?: string };
    } catch {
      return { message: text };
    }
  })();
  if (res.ok && Array.isArray(parsed.events)) return parsed.events as HistoryEntry[];
  throw new UnavailableError(`${new URL(url).pathname} answered ${res.status}: ${parsed.message ?? 'no events'}`);
}
