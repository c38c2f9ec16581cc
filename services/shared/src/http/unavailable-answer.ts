import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

/**
 * The answer of a process that is listening but cannot serve (starting, shutting down): 503
 * `{"message": <message>}` on every path, and on /api/health `{"status": <status>, "service", "message"}`,
 * never cached; with `retryAfterSeconds` a Retry-After, with `closeConnection` a `Connection: close` (and the
 * connection is closed after the answer). Answered at once, whatever the request's body.
 */
export function unavailableAnswer(
  service: string,
  answer: { status: string; message: string; retryAfterSeconds?: number; closeConnection?: boolean },
): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    req.resume(); // drain any body: the answer does not depend on it
    const health = (req.url ?? '/').split('?')[0] === '/api/health';
    const body = JSON.stringify(
      health ? { status: answer.status, service, message: answer.message } : { message: answer.message },
    );
    if (answer.closeConnection) res.shouldKeepAlive = false;
    res.writeHead(503, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      ...(answer.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(answer.retryAfterSeconds) }),
      ...(answer.closeConnection ? { Connection: 'close' } : {}),
      'Cache-Control': 'no-store',
    });
    res.end(body);
  };
}
