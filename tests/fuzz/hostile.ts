/**
 * Hostile inputs: values for a field, whole bodies, path segments, query strings and tokens. Each is named,
 * so a failing request says what it sent.
 */
import { deepNesting, Raw, setKey } from './json-text.ts';
import type { Rng } from '@shop/test-support/prng';

const MB = 1024 * 1024;

/** A value in place of a field's: wrong types, edge numbers, odd and dangerous strings. */
export function hostileValue(rng: Rng): { name: string; value: unknown } {
  const kind = rng.weighted<string>([
    [6, 'wrong-type'],
    [5, 'number-edge'],
    [8, 'odd-string'],
    [2, 'large-string'],
    [1, 'huge-string'],
    [2, 'deep-nesting'],
    [2, 'prototype'],
    [2, 'big-array'],
  ]);
  switch (kind) {
    case 'wrong-type': {
      const v = rng.pick<unknown>([0, -1, 1.5, true, false, null, '', 'x', [], {}, [[]], { a: {} }, ['a', 1], [null]]);
      return { name: `wrong-type ${JSON.stringify(v)}`, value: v };
    }
    case 'number-edge': {
      const raw = rng.pick([
        '1e400',
        '-1e400',
        '-0',
        '1e308',
        '-1e308',
        '9007199254740993',
        '-9007199254740993',
        '1e21',
        '2147483648',
        '18446744073709551616',
        '5e-324',
        '0.1e-400',
        '123456789012345678901234567890',
        '0.000001',
        '99.999',
        '-99999999',
      ]);
      return { name: `number ${raw}`, value: new Raw(raw) };
    }
    case 'odd-string': {
      const s = rng.pick(ODD_STRINGS);
      return { name: `string ${JSON.stringify(s).slice(0, 60)}`, value: s };
    }
    case 'large-string': {
      const n = rng.pick([1000, 10_000, 200_000]);
      return { name: `string of ${n} chars`, value: rng.pick(['A', 'é', '😀', '<', "'"]).repeat(n) };
    }
    case 'huge-string':
      // over the 1 MB JSON limit: the parser's 413, not the handler's
      return { name: 'string of 1.1M chars', value: 'A'.repeat(1.1 * MB) };
    case 'deep-nesting': {
      const kindN = rng.pick(['array', 'object'] as const);
      return { name: `${kindN} nested 10000 deep`, value: deepNesting(10_000, kindN) };
    }
    case 'prototype': {
      const o: Record<string, unknown> = {};
      const key = rng.pick(['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf']);
      setKey(o, key, rng.pick<unknown>([{ isAdmin: true, polluted: 1 }, { prototype: { isAdmin: true } }, 'x', null]));
      return { name: `object with key ${key}`, value: o };
    }
    default: {
      const n = rng.pick([1000, 100_000]);
      return { name: `array of ${n}`, value: Array.from({ length: n }, (_, i) => (i % 2 ? 'x' : i)) };
    }
  }
}

export const ODD_STRINGS: readonly string[] = [
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '1e400',
  '0x1A',
  '1_000',
  ' 42 ',
  '12abc',
  '٣',
  '１２３',
  '-1',
  '99999999999999999999',
  '2026-02-30',
  '0000-00-00',
  '9999-99-99T99:99:99Z',
  'a@b',
  '@',
  `${'a'.repeat(300)}@example.in`,
  ' ',
  '\t\n\r',
  'nul\u0000byte',
  '\u0000',
  'lone \ud800 high',
  'lone \udfff low',
  '\ufeffbom',
  '\u202eRTL override',
  'e\u0301\u0301\u0301',
  '😀👨‍👩‍👧‍👦',
  "' OR '1'='1",
  "'; DROP TABLE products; --",
  '1; SELECT pg_sleep(30)',
  '" OR ""="',
  '%',
  '%%',
  '_',
  '\\',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg/onload=alert(1)>',
  'javascript:alert(1)',
  '../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '/uploads/../../../etc/passwd',
  'file:///etc/passwd',
  'http://169.254.169.254/latest/meta-data/',
  '${jndi:ldap://x/a}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'line\r\nSet-Cookie: a=b',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
];

/** A whole body in place of the valid one: bytes and the content type to send them with. */
export interface RawBody {
  name: string;
  contentType?: string;
  contentEncoding?: string;
  bytes?: Buffer;
}

/** Whole-body hostility; `valid` is the JSON text of a valid body (cut, wrapped or re-typed here). */
export function hostileBody(rng: Rng, valid: string): RawBody {
  const json = 'application/json';
  const b = (s: string) => Buffer.from(s, 'utf8');
  const kind = rng.weighted<string>([
    [3, 'empty'],
    [3, 'scalar'],
    [2, 'array-of-valid'],
    [2, 'deep'],
    [4, 'malformed'],
    [3, 'bad-utf8'],
    [2, 'escapes'],
    [4, 'content-type'],
    [2, 'encoding'],
    [1, 'too-large'],
    [2, 'many-keys'],
    [2, 'prototype'],
  ]);
  switch (kind) {
    case 'empty':
      return rng.pick<RawBody>([
        { name: 'empty body, json type', contentType: json, bytes: Buffer.alloc(0) },
        { name: 'no body, no type' },
        { name: 'empty body, no type', bytes: Buffer.alloc(0) },
        { name: 'whitespace body', contentType: json, bytes: b('  \n ') },
      ]);
    case 'scalar': {
      const s = rng.pick(['null', '"text"', '0', '-1', 'true', 'false', '[]', '1e400', '""']);
      return { name: `body ${s}`, contentType: json, bytes: b(s) };
    }
    case 'array-of-valid':
      return { name: 'array instead of object', contentType: json, bytes: b(`[${valid}]`) };
    case 'deep': {
      const k = rng.pick(['array', 'object'] as const);
      return { name: `body: ${k} nested 10000 deep`, contentType: json, bytes: b(deepNesting(10_000, k).text) };
    }
    case 'malformed': {
      const cut = valid.slice(0, rng.int(0, Math.max(0, valid.length - 1)));
      const s = rng.pick([
        cut,
        '{',
        '{"a":}',
        'NaN',
        '{"a":NaN}',
        '{"a":Infinity}',
        "{'a':1}",
        '{"a":1,}',
        `${valid}garbage`,
        `${valid}${valid}`,
        '{"a":"\\x41"}',
        '{"a":"\\u12"}',
        '{"a":"unterminated}',
        '\u0000',
      ]);
      return { name: `malformed JSON ${JSON.stringify(s.slice(0, 40))}`, contentType: json, bytes: b(s) };
    }
    case 'bad-utf8': {
      const bad = rng.pick([
        [0xff, 0xfe],
        [0xc0, 0xaf],
        [0xed, 0xa0, 0x80],
        [0xf4, 0x90, 0x80, 0x80],
        [0x80],
        [0xe2, 0x82],
      ]);
      const at = valid.indexOf('"', 2);
      const bytes =
        at > 0
          ? Buffer.concat([b(valid.slice(0, at + 1)), Buffer.from(bad), b(valid.slice(at + 1))])
          : Buffer.concat([b('{"a":"'), Buffer.from(bad), b('"}')]);
      return { name: `invalid UTF-8 bytes ${bad.map((x) => x.toString(16)).join(' ')}`, contentType: json, bytes };
    }
    case 'escapes': {
      const esc = rng.pick(['\\u0000', '\\ud800', '\\udc00', '\\ud800\\ud800', '\\uffff', '\\ufffe']);
      const m = /"([^"\\]{0,40})"\s*:\s*"/.exec(valid);
      const text = m ? valid.replace(m[0], `${m[0]}${esc}`) : `{"name":"${esc}"}`;
      return { name: `escape ${esc} in a string`, contentType: json, bytes: b(text) };
    }
    case 'content-type':
      return rng.pick<RawBody>([
        { name: 'text/plain with JSON', contentType: 'text/plain', bytes: b(valid) },
        { name: 'application/xml', contentType: 'application/xml', bytes: b('<a><b>1</b></a>') },
        {
          name: 'form-urlencoded',
          contentType: 'application/x-www-form-urlencoded',
          bytes: b('a=1&b[c]=2&__proto__[isAdmin]=true&constructor[prototype][x]=1&name=x&name=y'),
        },
        { name: 'multipart without boundary', contentType: 'multipart/form-data', bytes: b(valid) },
        { name: 'json, charset utf-16', contentType: 'application/json; charset=utf-16', bytes: b(valid) },
        { name: 'json, charset koi8-r', contentType: 'application/json; charset=koi8-r', bytes: b(valid) },
        { name: 'json, charset junk', contentType: 'application/json; charset=%%%', bytes: b(valid) },
        { name: 'vnd.api+json', contentType: 'application/vnd.api+json', bytes: b(valid) },
        { name: 'content type junk', contentType: '???/;;;', bytes: b(valid) },
        { name: 'octet-stream', contentType: 'application/octet-stream', bytes: Buffer.from([0, 1, 2, 255]) },
      ]);
    case 'encoding':
      return rng.pick<RawBody>([
        { name: 'gzip header, junk bytes', contentType: json, contentEncoding: 'gzip', bytes: b('not gzip at all') },
        { name: 'deflate, junk', contentType: json, contentEncoding: 'deflate', bytes: b('not deflate') },
        { name: 'br, junk', contentType: json, contentEncoding: 'br', bytes: b('not brotli') },
        { name: 'unknown encoding', contentType: json, contentEncoding: 'x-fuzz', bytes: b(valid) },
      ]);
    case 'too-large':
      return {
        name: 'JSON body of 1.2 MB',
        contentType: json,
        bytes: b(`{"a":"${'A'.repeat(1.2 * MB)}"}`),
      };
    case 'many-keys': {
      const n = rng.pick([1000, 30_000]);
      const parts = Array.from({ length: n }, (_, i) => `"k${i}":${i}`);
      return { name: `object with ${n} keys`, contentType: json, bytes: b(`{${parts.join(',')}}`) };
    }
    default: {
      const p = rng.pick([
        '{"__proto__":{"isAdmin":true}}',
        '{"constructor":{"prototype":{"isAdmin":true}}}',
        `{"__proto__":[],"prototype":1${valid.length > 2 ? `,${valid.slice(1)}` : '}'}`,
      ]);
      return { name: `prototype keys ${p.slice(0, 40)}`, contentType: json, bytes: b(p) };
    }
  }
}

/** A path segment in place of a parameter: written raw into the request line (no normalising). */
export function hostileSegment(rng: Rng): string {
  return rng.pick([
    '..',
    '../../etc/passwd',
    '..%2f..%2fetc%2fpasswd',
    '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    '%2e%2e',
    '%252e%252e%252f',
    '..%5c..%5cwindows',
    '%00',
    'a%00b',
    '%ZZ',
    '%',
    '%E0%A4%A',
    '%ED%A0%80',
    '%C0%AF',
    '%FF',
    '%F0%9F%98%80',
    'x'.repeat(10_000),
    "1'%20OR%20'1'='1",
    '1;DROP%20TABLE%20x',
    '%3Cscript%3Ealert(1)%3C%2Fscript%3E',
    '__proto__',
    'constructor',
    '-1',
    '0',
    '99999999999999999999999',
    'NaN',
    '%20',
    '.',
    '~',
    '%2F',
    'null',
  ]);
}

/** A query string of hostile parameters (raw, already encoded where encoding is the point). */
export function hostileQuery(rng: Rng, keys: readonly string[]): string {
  const k = keys.length ? rng.pick(keys) : 'q';
  return rng.pick([
    `${k}=a&${k}=b`,
    `${k}=1&${k}=2&${k}=3`,
    `${k}[]=a`,
    `${k}[x]=1`,
    `${k}[__proto__][isAdmin]=true`,
    `__proto__[isAdmin]=true`,
    `constructor[prototype][isAdmin]=true`,
    `${k}=%ZZ`,
    `${k}=%E0%A4%A`,
    `${k}=%ED%A0%80`,
    `${k}=%00`,
    `${k}=..%2F..%2Fetc%2Fpasswd`,
    `${k}=../../etc/passwd`,
    `${k}=${'x'.repeat(50_000)}`,
    `${k}=%27%20OR%201%3D1--`,
    `${k}=%3Cscript%3E`,
    `${k}`,
    `${k}=`,
    `=${k}`,
    '&&&',
    '?',
    `${k}=NaN`,
    `${k}=-1`,
    `${k}=1e400`,
    Array.from({ length: 2000 }, (_, i) => `p${i}=${i}`).join('&'),
    `access_token=garbage&${k}=1`,
  ]);
}
