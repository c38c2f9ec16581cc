import type { Request, Response } from 'express';

/** One cookie's value from the Cookie header (the API reads only its own few cookies: no cookie-parser). */
export function cookieOf(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Over TLS, or behind a proxy that says so (asked only then: `req.secure` parses the trusted proxy chain). */
const isHttps = (req: Request): boolean =>
  (req.socket as { encrypted?: boolean }).encrypted === true ||
  (req.headers['x-forwarded-proto'] !== undefined && req.secure);

/**
 * Sets one of the shop's cookies on an answer not yet sent: HttpOnly always, `Secure` over https, with its path,
 * lifetime and SameSite rule.
 */
export function setCookie(
  req: Request,
  res: Response,
  cookie: { name: string; value: string; path: string; maxAgeSeconds: number; sameSite: 'Lax' | 'Strict' },
): void {
  if (res.headersSent) return;
  const attributes = [
    `Path=${cookie.path}`,
    `Max-Age=${cookie.maxAgeSeconds}`,
    'HttpOnly',
    `SameSite=${cookie.sameSite}`,
  ];
  if (isHttps(req)) attributes.push('Secure');
  res.append('Set-Cookie', `${cookie.name}=${cookie.value}; ${attributes.join('; ')}`);
}
