import type { RouteAuth, RouteSpec } from '../../services/shared/src/http/route-table.ts';

/**
 * The authorization matrix: every route of the route table, tried with every kind of credential. What each
 * cell must answer follows from the route's `auth` alone, so a route added to the table is covered at once.
 */

/** The credentials every route is tried with. */
export const CREDENTIALS = [
  'no token',
  'expired token',
  'other secret',
  'alg none',
  'deleted user',
  'shopper',
  'service',
  'admin',
] as const;
export type Credential = (typeof CREDENTIALS)[number];

/** What a cell must answer: get past the guard (anything but 401/403), or be refused with one of `statuses`. */
export type Expectation = { pass: true } | { pass: false; statuses: readonly number[] };

const PASS: Expectation = { pass: true };
const refuse = (...statuses: number[]): Expectation => ({ pass: false, statuses });

/** Tokens that prove nothing: absent, expired, forged (another secret, unsigned) or of an account that is gone. */
const INVALID: ReadonlySet<Credential> = new Set([
  'no token',
  'expired token',
  'other secret',
  'alg none',
  'deleted user',
]);

export function expectation(auth: RouteAuth, credential: Credential): Expectation {
  switch (auth) {
    case 'public':
      return PASS;
    case 'user':
      if (INVALID.has(credential)) return refuse(401);
      // a service token is no one's account: nothing of a user's may be read or written with it
      if (credential === 'service') return refuse(401, 403);
      return PASS;
    case 'admin':
      if (INVALID.has(credential)) return refuse(401);
      return credential === 'admin' ? PASS : refuse(403);
    case 'service':
      if (INVALID.has(credential)) return refuse(401);
      return credential === 'service' ? PASS : refuse(403);
    case 'signed':
      // No token stands in for the provider's signature (none is sent): every cell is refused.
      return refuse(400, 401, 403);
  }
}

export function meets(expected: Expectation, status: number): boolean {
  if (expected.pass) return status !== 401 && status !== 403;
  return expected.statuses.includes(status);
}

/** `/api/products/:id` with each `:name` replaced by `value(name)`. */
export function fillPath(path: string, value: (param: string) => string): string {
  return path.replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(value(name)));
}

/** The smallest request that reaches a route's guard: guards run before any parsing, so an empty body does. */
export function minimalBody(route: RouteSpec): { json?: unknown; form?: FormData } {
  if (route.method === 'get' || route.method === 'delete') return {};
  return route.bodyType === 'multipart' ? { form: new FormData() } : { json: {} };
}

export interface Cell {
  route: RouteSpec;
  /** The credential, and where it was sent when not in the Authorization header. */
  credential: Credential | `${Credential} in ?access_token`;
  expected: Expectation;
  status: number;
  body: string;
}

export const cellName = (c: Pick<Cell, 'route' | 'credential'>) =>
  `${c.route.method.toUpperCase()} ${c.route.path} [${c.route.auth}] with ${c.credential}`;

export function describeWrong(c: Cell): string {
  const wanted = c.expected.pass ? 'past the guard (not 401/403)' : c.expected.statuses.join(' or ');
  return `${cellName(c)}: got ${c.status}, expected ${wanted} (${c.body.slice(0, 120)})`;
}
