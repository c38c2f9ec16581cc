/**
 * Generated requests over the shop's route table: valid ones (from each route's zod schemas, with seeded ids
 * so handlers find rows) and hostile variants of every part: token, path parameters, query, body bytes,
 * content type and encoding, multipart forms, headers. Request `index` of seed `seed` is always the same
 * request (its own PRNG), so a failure is replayed from those two numbers.
 */
import { createHmac } from 'node:crypto';
import type { z } from 'zod';
import type { RouteSpec } from '../../services/shared/src/http/route-table.ts';
import { hostileBody, hostileQuery, hostileSegment, hostileValue, type RawBody } from './hostile.ts';
import { FileValue, Raw, setKey, toJsonText } from './json-text.ts';
import { requestRng, type Rng } from '@shop/test-support/prng';
import { TokenBox, type FuzzIdentities } from './tokens.ts';
import { TINY_PNG, validValue, type Hints } from './zod-values.ts';

export interface FuzzRequest {
  index: number;
  /** The route table entry: `POST /api/products/:id`. */
  route: string;
  method: string;
  /** The request target as sent (raw path and query). */
  target: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** An event stream: answered once its headers arrive. */
  stream: boolean;
  /** What this request varied, for the report. */
  variant: string[];
}

export interface FuzzTarget {
  routes: readonly RouteSpec[];
  identities: FuzzIdentities;
  /** Seeded ids and codes (see zod-values Hints). */
  hints: Hints;
  /** The payment webhook's secret, so some webhook bodies carry a valid signature. */
  webhookSecret?: string;
}

export const routeKey = (r: Pick<RouteSpec, 'method' | 'path'>) => `${r.method.toUpperCase()} ${r.path}`;

type Schema = z.ZodType;
type BodyBytes = Omit<RawBody, 'name'>;
const shapeOf = (s: Schema | undefined): Record<string, Schema> => {
  const def = (s as unknown as { _zod?: { def: { type: string; shape?: Record<string, Schema> } } } | undefined)?._zod
    ?.def;
  return def?.type === 'object' && def.shape ? def.shape : {};
};

/** A value as a form field or query value. */
const asText = (v: unknown): string =>
  v instanceof Raw ? v.text : typeof v === 'string' ? v : v === null || v === undefined ? '' : toJsonText(v);

export class RequestGenerator {
  private readonly tokens: TokenBox;

  constructor(
    private readonly target: FuzzTarget,
    readonly seed: number,
  ) {
    if (target.routes.length === 0) throw new Error('no routes to fuzz');
    this.tokens = new TokenBox(target.identities);
  }

  generate(index: number): FuzzRequest {
    const rng = requestRng(this.seed, index);
    const routes = this.target.routes;
    // Round robin over the table (every route gets its share), in an order shuffled per round.
    const round = Math.floor(index / routes.length);
    const order = shuffledIndexes(routes.length, requestRng(this.seed, -1 - round));
    const route = routes[order[index % routes.length]!]!;
    const variant: string[] = [];
    const headers: Record<string, string> = {};
    const own = route.method.toUpperCase();
    const method = rng.weighted<string>([
      [95, own],
      [own === 'GET' ? 3 : 0, 'HEAD'],
      [1, 'OPTIONS'],
      [1, rng.pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'TRACE'].filter((m) => m !== own))],
    ]);
    if (method !== own)
      variant.push(`method ${method}${method === 'HEAD' || method === 'OPTIONS' ? '' : " (not the route's)"}`);

    // ---- token ----
    const kind = this.tokens.kindFor(route.auth, rng);
    variant.push(`token ${kind}`);
    const tokenQuery = this.tokens.apply(kind, headers);

    // ---- path parameters ----
    let path = route.path;
    const paramShape = shapeOf(route.params);
    for (const m of route.path.matchAll(/:(\w+)/g)) {
      const name = m[1]!;
      const prefix = route.path.slice(0, m.index - 1);
      let segment: string;
      if (rng.chance(0.25)) {
        segment = hostileSegment(rng);
        variant.push(`param ${name} ${JSON.stringify(segment.slice(0, 40))}`);
      } else {
        // A method's own pool first: DELETE gets rows seeded to be deleted, so the others keep theirs.
        const hinted =
          this.target.hints[`param:${route.method.toUpperCase()} ${prefix}/:${name}`] ??
          this.target.hints[`param:${prefix}/:${name}`];
        const value =
          hinted?.length && rng.chance(0.8)
            ? rng.pick(hinted)
            : paramShape[name]
              ? asText(validValue(paramShape[name], { rng, hints: this.target.hints, field: name }))
              : `x${rng.int(0, 999)}`;
        segment = encodeURIComponent(value);
      }
      path = path.replace(`:${name}`, () => segment);
    }

    // ---- query ----
    const queryParts: string[] = [];
    const queryKeys = Object.keys(shapeOf(route.query));
    if (route.query && rng.chance(0.8)) {
      const q = validValue(route.query, { rng, hints: this.target.hints });
      if (q && typeof q === 'object') {
        for (const [k, v] of Object.entries(q)) {
          for (const item of Array.isArray(v) ? v : [v])
            if (item !== undefined) queryParts.push(`${encodeURIComponent(k)}=${encodeURIComponent(asText(item))}`);
        }
      }
    }
    if (rng.chance(route.query ? 0.3 : 0.1)) {
      const h = hostileQuery(rng, queryKeys);
      queryParts.push(h);
      variant.push(`query ${JSON.stringify(h.slice(0, 50))}`);
    }
    if (tokenQuery) queryParts.push(tokenQuery);
    const target = queryParts.length ? `${path}?${queryParts.join('&')}` : path;

    // ---- body ----
    const body = this.body(route, method, rng, variant);
    if (body.bytes !== undefined) {
      if (rng.chance(0.05)) {
        // no length said: the parsers' limits must hold while reading
        headers['transfer-encoding'] = 'chunked';
        variant.push('chunked');
      } else headers['content-length'] = String(body.bytes.length);
    }
    if (body.contentType !== undefined) headers['content-type'] = body.contentType;
    if (body.contentEncoding !== undefined) headers['content-encoding'] = body.contentEncoding;
    if (route.auth === 'signed') this.sign(body.bytes ?? Buffer.alloc(0), headers, rng, variant);

    // ---- other headers ----
    headers['x-forwarded-for'] = `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;
    if (rng.chance(0.05)) {
      const xff = rng.pick(['unknown', '1.1.1.1, 2.2.2.2, 3.3.3.3', '999.999.1.1', '::1', ' ', 'x'.repeat(2000)]);
      headers['x-forwarded-for'] = xff;
      variant.push(`x-forwarded-for ${JSON.stringify(xff.slice(0, 30))}`);
    }
    if (rng.chance(0.1))
      headers['accept-encoding'] = rng.pick(['gzip', 'br', 'deflate', 'identity', '*', 'gzip;q=x, junk']);
    if (rng.chance(0.05)) {
      headers['x-request-id'] = rng.pick(['../../x', 'a'.repeat(500), '<script>', '']);
      variant.push('x-request-id odd');
    }
    if (rng.chance(0.05)) headers.accept = rng.pick(['text/event-stream', 'text/html', '*/*', 'application/xml', ';;']);

    return {
      index,
      route: routeKey(route),
      method,
      target,
      headers,
      ...(body.bytes !== undefined && method !== 'HEAD' ? { body: body.bytes } : {}),
      stream: route.stream === true,
      variant,
    };
  }

  private body(route: RouteSpec, method: string, rng: Rng, variant: string[]): BodyBytes {
    const json = 'application/json';
    if (method === 'HEAD') return {}; // a HEAD request's body would never be read by the client's choice
    const takesBody = route.body !== undefined;
    if (!takesBody) {
      // No body expected: usually none, sometimes junk anyway.
      if (!rng.chance(method === 'GET' || method === 'HEAD' ? 0.03 : 0.15)) return {};
      const b = hostileBody(rng, '{}');
      variant.push(`unexpected body: ${b.name}`);
      return b;
    }
    const mode = rng.weighted<'valid' | 'field' | 'whole'>([
      [45, 'valid'],
      [30, 'field'],
      [25, 'whole'],
    ]);
    const value = validValue(route.body!, { rng, hints: this.target.hints });
    if (mode === 'field') variant.push(`body field: ${mutateField(value, rng)}`);
    else variant.push(`body ${mode}`);
    const form = route.bodyType === 'multipart' && rng.chance(0.5);
    if (mode === 'whole') {
      if (form && rng.chance(0.6)) {
        const b = hostileMultipart(value, rng);
        variant.push(b.name);
        return b;
      }
      const b = hostileBody(rng, toJsonText(value));
      variant.push(b.name);
      return b;
    }
    if (form) {
      variant.push('multipart');
      return multipart(value, rng);
    }
    return { contentType: json, bytes: Buffer.from(toJsonText(value), 'utf8') };
  }

  private sign(bytes: Buffer, headers: Record<string, string>, rng: Rng, variant: string[]) {
    const secret = this.target.webhookSecret;
    const good = secret ? createHmac('sha256', secret).update(bytes).digest('hex') : undefined;
    const sig = rng.weighted<string | undefined>([
      [good ? 65 : 0, good],
      [5, undefined],
      [5, ''],
      [5, '0'.repeat(64)],
      [5, good?.toUpperCase() ?? 'ABC'],
      [5, 'zz'],
      [5, 'x'.repeat(5000)],
    ]);
    if (sig !== undefined) headers['x-razorpay-signature'] = sig;
    variant.push(sig === good ? 'signature valid' : 'signature bad');
    if (rng.chance(0.5)) headers['x-razorpay-event-id'] = `evt_fuzz_${rng.int(0, 40)}`;
  }
}

function shuffledIndexes(n: number, rng: Rng): number[] {
  const a = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

/** Changes one place of a generated body in place (or says why it could not); returns what it did. */
function mutateField(value: unknown, rng: Rng): string {
  // Every object or array in the tree, with its path.
  const containers: Array<{ node: Record<string, unknown> | unknown[]; path: string }> = [];
  const stack: Array<{ v: unknown; path: string }> = [{ v: value, path: '' }];
  while (stack.length) {
    const { v, path } = stack.pop()!;
    if (v instanceof Raw || v instanceof FileValue) continue;
    if (Array.isArray(v)) {
      containers.push({ node: v, path });
      v.forEach((c, i) => stack.push({ v: c, path: `${path}[${i}]` }));
    } else if (v && typeof v === 'object') {
      containers.push({ node: v as Record<string, unknown>, path });
      for (const [k, c] of Object.entries(v)) stack.push({ v: c, path: `${path}.${k}` });
    }
  }
  if (containers.length === 0) return 'no fields';
  const { node, path } = rng.pick(containers);
  const keys = Array.isArray(node) ? node.map((_, i) => String(i)) : Object.keys(node);
  const action = rng.weighted<'replace' | 'delete' | 'extra' | 'wrap'>([
    [keys.length ? 6 : 0, 'replace'],
    [keys.length ? 2 : 0, 'delete'],
    [2, 'extra'],
    [keys.length ? 1 : 0, 'wrap'],
  ]);
  const set = (k: string, v: unknown) => {
    if (Array.isArray(node)) node[Number(k)] = v;
    else setKey(node, k, v);
  };
  const get = (k: string) => (node as Record<string, unknown>)[k];
  switch (action) {
    case 'replace': {
      const k = rng.pick(keys);
      const h = hostileValue(rng);
      set(k, h.value);
      return `${path}.${k} = ${h.name}`;
    }
    case 'delete': {
      const k = rng.pick(keys);
      if (Array.isArray(node)) node.splice(Number(k), 1);
      else delete (node as Record<string, unknown>)[k];
      return `${path}.${k} left out`;
    }
    case 'wrap': {
      const k = rng.pick(keys);
      const wrapped = rng.chance(0.5) ? [get(k)] : { value: get(k) };
      set(k, wrapped);
      return `${path}.${k} wrapped in ${Array.isArray(wrapped) ? 'an array' : 'an object'}`;
    }
    default: {
      if (Array.isArray(node)) {
        const h = hostileValue(rng);
        node.push(h.value);
        return `${path}[] extra ${h.name}`;
      }
      const k = rng.pick(['extra', '__proto__', 'constructor', 'prototype', 'isAdmin', 'userId', 'id', 'status', '']);
      const v = rng.chance(0.5) ? hostileValue(rng).value : { isAdmin: true };
      setKey(node, k, v);
      return `${path}.${k} extra`;
    }
  }
}

const CRLF = '\r\n';

/** The value's top-level fields as a multipart form (files as file parts, objects as JSON text). */
function multipart(value: unknown, rng: Rng, boundary = `----fuzz${rng.int(0, 1e9)}`): BodyBytes {
  const chunks: Buffer[] = [];
  const fields = value && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : [];
  for (const [k, v] of fields) {
    if (v === undefined) continue;
    if (v instanceof FileValue) {
      chunks.push(
        Buffer.from(
          `--${boundary}${CRLF}Content-Disposition: form-data; name="${k}"; filename="${v.filename}"${CRLF}Content-Type: ${v.contentType}${CRLF}${CRLF}`,
        ),
        v.bytes,
        Buffer.from(CRLF),
      );
    } else {
      chunks.push(
        Buffer.from(`--${boundary}${CRLF}Content-Disposition: form-data; name="${k}"${CRLF}${CRLF}${asText(v)}${CRLF}`),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--${CRLF}`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, bytes: Buffer.concat(chunks) };
}

/** Broken or abusive multipart forms. */
function hostileMultipart(value: unknown, rng: Rng): RawBody {
  const boundary = `----fuzz${rng.int(0, 1e9)}`;
  const type = `multipart/form-data; boundary=${boundary}`;
  const part = (headers: string, content: string | Buffer) =>
    Buffer.concat([
      Buffer.from(`--${boundary}${CRLF}${headers}${CRLF}${CRLF}`),
      Buffer.from(content),
      Buffer.from(CRLF),
    ]);
  const end = Buffer.from(`--${boundary}--${CRLF}`);
  const field = (name: string, content: string | Buffer) =>
    part(`Content-Disposition: form-data; name="${name}"`, content);
  const file = (name: string, filename: string, ctype: string, bytes: Buffer) =>
    part(`Content-Disposition: form-data; name="${name}"; filename="${filename}"${CRLF}Content-Type: ${ctype}`, bytes);
  /** A form of these parts, closed by the boundary. */
  const form = (name: string, ...parts: Buffer[]): RawBody => ({
    name: `multipart: ${name}`,
    contentType: type,
    bytes: Buffer.concat([...parts, end]),
  });
  const valid = multipart(value, rng, boundary).bytes!;
  const kind = rng.int(0, 13);
  switch (kind) {
    case 0:
      return { name: 'multipart: other boundary', contentType: 'multipart/form-data; boundary=nope', bytes: valid };
    case 1:
      return {
        name: 'multipart: cut short',
        contentType: type,
        bytes: valid.subarray(0, Math.floor(valid.length / 2)),
      };
    case 2:
      return { name: 'multipart: junk bytes', contentType: type, bytes: Buffer.from('\x00\xff junk \r\n--x') };
    case 3:
      return form('part without a name', part('Content-Disposition: form-data', 'x'));
    case 4:
      return form('60 fields', ...Array.from({ length: 60 }, (_, i) => field(`f${i}`, 'v')));
    case 5:
      return form(
        'two image files',
        file('image', 'a.png', 'image/png', TINY_PNG),
        file('image', 'b.png', 'image/png', TINY_PNG),
      );
    case 6:
      return form('file in an unknown field', file('avatar', 'a.png', 'image/png', TINY_PNG));
    case 7:
      return form('text file as image', file('image', 'a.png', 'image/png', Buffer.from('<?php echo 1; ?>')));
    case 8:
      return form('non-image type', file('image', 'a.html', 'text/html', Buffer.from('<script>alert(1)</script>')));
    case 9:
      return form(
        'traversal file name',
        valid.subarray(0, valid.length - end.length),
        file('image', '../../../etc/passwd', 'image/png', TINY_PNG),
      );
    case 10:
      return {
        name: 'multipart: NUL and lone surrogate in fields',
        contentType: type,
        bytes: Buffer.concat([field('name', 'a\u0000b'), field('description', Buffer.from([0xed, 0xa0, 0x80])), valid]),
      };
    case 11:
      return form('field over 1 MB', field('description', 'A'.repeat(1.1 * 1024 * 1024)));
    case 12:
      return form(
        'image over 5 MB',
        file('image', 'big.png', 'image/png', Buffer.concat([TINY_PNG, Buffer.alloc(5.2 * 1024 * 1024)])),
      );
    default:
      return form(
        'field names as prototype keys',
        field('__proto__', '{"isAdmin":true}'),
        field('constructor[prototype][isAdmin]', 'true'),
        field('sizeQuantities', '{"__proto__":{"M":1}}'),
      );
  }
}
