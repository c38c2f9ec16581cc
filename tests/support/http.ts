/** A tiny JSON client for tests that talk to a running shop over HTTP. */
export function httpClient(base: string) {
  return async function api<T = unknown>(
    method: string,
    path: string,
    opts: { token?: string; body?: unknown; form?: FormData } = {},
  ): Promise<{ status: number; body: T }> {
    const headers: Record<string, string> = {};
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: RequestInit['body'];
    if (opts.form) body = opts.form;
    else if (opts.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
    const r = await fetch(base + path, { method, headers, body });
    const text = await r.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: r.status, body: parsed as T };
  };
}

/** Polls `check` until it returns a truthy value or the deadline passes. */
export async function waitUntil<T>(
  check: () => Promise<T | undefined | null | false>,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
