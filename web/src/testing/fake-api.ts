import { vi } from 'vitest';

type Handler = (request: Request) => Response | Promise<Response>;

/** A JSON answer as the API sends it. */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/**
 * Replaces global fetch with handlers keyed by 'METHOD /path' (path without the query string, e.g.
 * 'GET /api/products'). Unknown calls answer 404 so a missing handler shows up as a failed call.
 * Returns the mock, whose calls hold the Request objects.
 */
export function fakeApi(handlers: Record<string, Handler>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const { pathname } = new URL(request.url);
    const handler = handlers[`${request.method} ${pathname}`];
    if (!handler) return jsonResponse({ message: `No fake for ${request.method} ${pathname}` }, 404);
    return handler(request);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The Request objects fetch was called with. */
export function requestsOf(fetchMock: ReturnType<typeof fakeApi>): Request[] {
  return fetchMock.mock.calls.map(([input, init]) => (input instanceof Request ? input : new Request(input, init)));
}
