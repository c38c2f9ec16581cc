import type { RequestHandler } from 'express';
import { ValidationError } from '../errors/errors.ts';

/** A NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this looks for
const UNSAFE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'g');

/** Why a string cannot be stored (Postgres text and jsonb refuse both), or null when it can. */
export function unsafeTextProblem(s: string): string | null {
  const m = UNSAFE.exec(s);
  if (!m) return null;
  return m[0] === '\u0000'
    ? 'must not contain a NUL character (\\u0000)'
    : 'must not contain an unpaired surrogate (\\ud800-\\udfff)';
}

/**
 * The first string (value or object key) in `value` that cannot be stored, with the path of its field
 * (`orderData.items.0.name`); null when every string is fine. Walks without recursion, so no nesting depth
 * the JSON parser accepts can overflow the stack.
 */
export function findUnsafeText(value: unknown, root = ''): { field: string; problem: string } | null {
  const join = (base: string, key: string) => (base ? `${base}.${key}` : key);
  const stack: Array<{ v: unknown; path: string }> = [{ v: value, path: root }];
  while (stack.length > 0) {
    const { v, path } = stack.pop()!;
    if (typeof v === 'string') {
      const problem = unsafeTextProblem(v);
      if (problem) return { field: path || 'body', problem };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], path: join(path, String(i)) });
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        const problem = unsafeTextProblem(key);
        if (problem) return { field: `${join(path, key.replace(UNSAFE_ALL, '?'))} (a key)`, problem };
        stack.push({ v: child, path: join(path, key) });
      }
    }
  }
  return null;
}

/** Throws a 400 naming the field when `value` holds a string that cannot be stored. */
export function assertSafeText(value: unknown, root = ''): void {
  const found = findUnsafeText(value, root);
  if (found) {
    const message = `${found.field} ${found.problem}`;
    throw new ValidationError(message, [{ path: found.field, message }]);
  }
}

/** How deep a JSON body may nest (arrays and objects); the shop's deepest body (the home page) uses 4. */
export const MAX_BODY_DEPTH = 32;

/**
 * Throws a 400 when `value` (the body, or the JSON text field `field` of a multipart form) nests arrays or
 * objects more than `max` levels deep (walked without recursion).
 * JSON.parse takes any depth, but code that meets such a value recursively (String() of an array, the pg
 * driver serialising a parameter, a schema library) overflows the stack: a RangeError, a 500.
 */
export function assertShallow(value: unknown, max = MAX_BODY_DEPTH, field = 'body'): void {
  const stack: Array<{ v: unknown; depth: number }> = [{ v: value, depth: 0 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= max) {
      const what = field === 'body' ? 'Request body' : field;
      const message = `${what} is nested too deeply (at most ${max} levels of arrays and objects)`;
      throw new ValidationError(message, [{ path: field, message }]);
    }
    for (const child of Array.isArray(v) ? v : Object.values(v as Record<string, unknown>))
      if (child !== null && typeof child === 'object') stack.push({ v: child, depth: depth + 1 });
  }
}

/**
 * Refuses, at the edge, a request whose JSON body nests deeper than MAX_BODY_DEPTH (see assertShallow), or
 * whose JSON body, query or path holds a NUL character or a lone surrogate:
 * Postgres cannot store either (text refuses NUL, jsonb refuses both), so they would otherwise surface as
 * 500s deep in a handler. Multipart text fields are parsed later, by the route; they are checked there.
 */
export function refuseUnsafeText(): RequestHandler {
  return (req, _res, next) => {
    try {
      if (req.path.includes('%')) {
        let decoded: string | undefined;
        try {
          decoded = decodeURIComponent(req.path);
        } catch {
          // malformed escapes are the router's to refuse
        }
        if (decoded !== undefined) assertSafeText(decoded, 'path');
      }
      if (req.url.includes('?')) assertSafeText(req.query, 'query');
      if (req.body !== undefined) {
        assertShallow(req.body);
        assertSafeText(req.body);
      }
      next();
    } catch (err) {
      next(err);
    }
  };
}
