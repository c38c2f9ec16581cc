import { describe, expect, it } from 'vitest';
import { securityHeaders } from './security.ts';

/** securityHeaders() sets helmet's headers from a list made once; every answer must get all of them. */

function answerTo(req: Record<string, unknown>) {
  const headers = new Map<string, string>();
  const removed: string[] = [];
  const res = {
    setHeader: (n: string, v: string) => void headers.set(n.toLowerCase(), v),
    removeHeader: (n: string) => void removed.push(n.toLowerCase()),
  };
  let nexted = 0;
  securityHeaders()(req as never, res as never, () => void nexted++);
  return { headers: Object.fromEntries(headers), removed, nexted };
}

const HELMET_HEADERS = {
  'content-security-policy': "default-src 'none';frame-ancestors 'none'",
  'cross-origin-opener-policy': 'same-origin-allow-popups',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

describe('securityHeaders', () => {
  it('gives a plain-http answer every helmet header, removes X-Powered-By, and no HSTS', () => {
    const a = answerTo({ headers: {}, socket: {} });
    expect(a.headers).toEqual(HELMET_HEADERS);
    expect(a.removed).toEqual(['x-powered-by']);
    expect(a.nexted).toBe(1);
  });

  it('adds HSTS over TLS, and with X-Forwarded-Proto only when express believes it (req.secure)', () => {
    const hsts = 'max-age=15552000';
    expect(answerTo({ headers: {}, socket: { encrypted: true } }).headers['strict-transport-security']).toBe(hsts);
    const forwarded = (secure: boolean) =>
      answerTo({ headers: { 'x-forwarded-proto': 'https' }, socket: {}, secure }).headers['strict-transport-security'];
    expect(forwarded(true)).toBe(hsts);
    expect(forwarded(false)).toBeUndefined();
  });
});
