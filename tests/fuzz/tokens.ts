/**
 * Authorization headers for the fuzzer: the valid shopper, admin and service tokens (so guarded handlers
 * run), and bad ones: garbage, expired, signed with the wrong secret, `alg: none`, an unknown user, odd
 * claims. Tokens are minted once per run with the shop's JWT secret, so a request stays reproducible.
 */
import jwt from 'jsonwebtoken';
import type { RouteAuth } from '../../services/shared/src/http/route-table.ts';
import type { Rng } from '@shop/test-support/prng';

export interface FuzzIdentities {
  /** The shop's JWT secret (to mint expired, service and odd tokens). */
  jwtSecret: string;
  /** A signed-in shopper's token and id. */
  user: { token: string; id: string; email: string };
  admin: { token: string; id: string; email: string };
}

export type TokenKind =
  | 'none'
  | 'user'
  | 'admin'
  | 'service'
  | 'garbage'
  | 'empty-bearer'
  | 'basic'
  | 'expired'
  | 'wrong-secret'
  | 'alg-none'
  | 'unknown-user'
  | 'claims-admin'
  | 'sub-not-string'
  | 'service-unknown'
  | 'query-token'
  | 'huge';

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

/** One issue time for every box of a process, so two generators of one seed mint the same bytes (a box
 * built a second later than another used to differ in `iat`). */
const MINTED_AT = Math.floor(Date.now() / 1000);

export class TokenBox {
  private readonly tokens: Record<string, string>;

  constructor(readonly ids: FuzzIdentities) {
    const { jwtSecret, user, admin } = ids;
    const claims = (u: { id: string; email: string }, isAdmin: boolean) => ({
      sub: u.id,
      email: u.email,
      name: 'Fuzz',
      isAdmin,
      iat: MINTED_AT,
    });
    const now = MINTED_AT;
    this.tokens = {
      user: user.token,
      admin: admin.token,
      service: jwt.sign({ email: '', name: 'checkout', isAdmin: false, iat: now }, jwtSecret, {
        subject: 'service:checkout',
        expiresIn: '1h',
      }),
      expired: jwt.sign({ ...claims(admin, true), iat: now - 7200, exp: now - 3600 }, jwtSecret),
      'wrong-secret': jwt.sign(claims(admin, true), 'not-the-shop-secret-at-all', { expiresIn: '1h' }),
      'alg-none': `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...claims(admin, true), exp: now + 3600 })}.`,
      'unknown-user': jwt.sign(
        { ...claims({ id: '00000000-0000-4000-8000-000000000000', email: 'ghost@example.in' }, true) },
        jwtSecret,
        { expiresIn: '1h' },
      ),
      'claims-admin': jwt.sign(claims(user, true), jwtSecret, { expiresIn: '1h' }),
      'sub-not-string': jwt.sign({ sub: 12345, isAdmin: true, iat: now } as object, jwtSecret, { expiresIn: '1h' }),
      'service-unknown': jwt.sign({ isAdmin: true, iat: now }, jwtSecret, { subject: 'service:evil', expiresIn: '1h' }),
      huge: jwt.sign({ ...claims(user, false), pad: 'x'.repeat(6000) }, jwtSecret, { expiresIn: '1h' }),
    };
  }

  /** A token kind for a route: mostly the right role (so the handler runs), often a bad one. */
  kindFor(auth: RouteAuth, rng: Rng): TokenKind {
    const bad: TokenKind[] = [
      'garbage',
      'empty-bearer',
      'basic',
      'expired',
      'wrong-secret',
      'alg-none',
      'unknown-user',
      'claims-admin',
      'sub-not-string',
      'service-unknown',
      'query-token',
      'huge',
    ];
    const right: TokenKind =
      auth === 'admin' ? 'admin' : auth === 'service' ? 'service' : auth === 'user' ? 'user' : 'none';
    const chosen = rng.weighted<TokenKind | 'bad'>([
      [auth === 'public' || auth === 'signed' ? 45 : 60, right],
      [10, auth === 'admin' ? 'user' : 'admin'],
      [5, auth === 'user' ? 'admin' : 'user'],
      [5, 'none'],
      [3, 'service'],
      [25, 'bad'],
    ]);
    return chosen === 'bad' ? rng.pick(bad) : chosen;
  }

  /** Headers (and a query parameter, for query-token) carrying a token of this kind. */
  apply(kind: TokenKind, headers: Record<string, string>): string | undefined {
    switch (kind) {
      case 'none':
        return undefined;
      case 'garbage':
        headers.authorization = 'Bearer not.a.jwt';
        return undefined;
      case 'empty-bearer':
        headers.authorization = 'Bearer ';
        return undefined;
      case 'basic':
        headers.authorization = `Basic ${Buffer.from('admin:admin').toString('base64')}`;
        return undefined;
      case 'query-token':
        return `access_token=${encodeURIComponent(this.tokens.user!)}`;
      default:
        headers.authorization = `Bearer ${this.tokens[kind]!}`;
        return undefined;
    }
  }
}
