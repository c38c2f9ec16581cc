/** What httpClient answers: a function sending one request. */
export type HttpClient = ReturnType<typeof httpClient>;

/**
 * A browser's cookies, as far as tests need them: what Set-Cookie answers gave, sent back on every request
 * (name=value only; the shop's cookies are all Path=/ on one host).
 */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  /** The Cookie header to send, or undefined when the jar is empty. */
  header(): string | undefined {
    return this.cookies.size ? [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') : undefined;
  }

  /** Keeps what an answer's Set-Cookie lines set. */
  take(answer: Response): void {
    for (const line of answer.headers.getSetCookie()) {
      const pair = line.split(';', 1)[0]!;
      const eq = pair.indexOf('=');
      if (eq > 0) this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }
}

/**
 * A tiny JSON client for tests that talk to a running shop over HTTP. With a `jar`, it keeps cookies as a browser
 * does (one jar = one browser); without, every request comes from a browser with no cookies.
 */
export function httpClient(base: string, jar?: CookieJar) {
  return async function api<T = unknown>(
    method: string,
    path: string,
    opts: { token?: string; body?: unknown; form?: FormData; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; body: T }> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    const cookie = jar?.header();
    if (cookie && !headers.cookie) headers.cookie = cookie;
    let body: RequestInit['body'];
    if (opts.form) body = opts.form;
    else if (opts.body !== undefined) {
      headers['content-type'] = 'application/json';
      // a string goes as it is (tests send malformed JSON that way)
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    }
    const r = await fetch(base + path, { method, headers, body });
    jar?.take(r);
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

/** A file for multipartForm: the form field it goes under, its bytes, content type and name. */
export interface FormFile {
  field: string;
  bytes: Buffer;
  type: string;
  name: string;
}

/** A multipart form as the admin screens send it: text fields, then files. */
export function multipartForm(fields: Record<string, string>, files: FormFile[] = []): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  for (const file of files)
    f.append(file.field, new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  return f;
}
