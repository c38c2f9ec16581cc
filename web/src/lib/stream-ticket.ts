import { env } from '@/config/env';

/**
 * The URL that opens the push stream (GET /orders/stream) for `token`'s session. EventSource cannot send
 * the bearer header, and a URL ends up in logs, so the token is first traded (POST /orders/stream-ticket)
 * for a ticket that opens the stream within 60 seconds and is good for nothing else. A stream that drops
 * later needs a new ticket: open it again through here. Rejects with the answer's status when refused.
 */
export async function orderStreamUrl(token: string): Promise<string> {
  const answer = await fetch(`${env.apiUrl}/orders/stream-ticket`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  const body: unknown = answer.ok ? await answer.json() : undefined;
  const ticket = (body as { ticket?: unknown } | undefined)?.ticket;
  if (typeof ticket !== 'string') throw new Error(`The order stream ticket was refused (${answer.status})`);
  return `${env.apiUrl}/orders/stream?ticket=${encodeURIComponent(ticket)}`;
}
