import { createHmac } from 'node:crypto';

/**
 * Access tokens made the way an attacker (or a service) would make them, with node:crypto rather than the
 * shop's own TokenService, so the shop's checks are what decides: HS256 as the shop signs (header, claims,
 * HMAC-SHA256 over both), plus the malformed variants the authorization matrix sends.
 */
const b64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

export interface Claims {
  sub: string;
  email?: string;
  name?: string;
  isAdmin?: boolean;
  /** Seconds since the epoch. */
  iat?: number;
  exp?: number;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A compact JWS: `alg` in the header, signed with `secret` (HS256), or unsigned for `none`. */
export function jwt(claims: Claims, opts: { secret: string; alg?: 'HS256' | 'none' }): string {
  const alg = opts.alg ?? 'HS256';
  const payload = { iat: nowSeconds(), exp: nowSeconds() + 3600, ...claims };
  const unsigned = `${b64url(JSON.stringify({ alg, typ: 'JWT' }))}.${b64url(JSON.stringify(payload))}`;
  if (alg === 'none') return `${unsigned}.`;
  return `${unsigned}.${createHmac('sha256', opts.secret).update(unsigned).digest('base64url')}`;
}

/** The same claims, expired a minute ago (and issued an hour before that). */
export const expiredJwt = (claims: Claims, secret: string) =>
  jwt({ ...claims, iat: nowSeconds() - 3660, exp: nowSeconds() - 60 }, { secret });

/** A service token: subject `service:<name>`, never an admin, signed with the shop's secret. */
export const serviceJwt = (name: string, secret: string) =>
  jwt({ sub: `service:${name}`, email: `${name}@services.internal`, name, isAdmin: false }, { secret });
