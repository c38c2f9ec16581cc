/**
 * Valid values from zod 4 schemas, for the fuzzer: walks `schema._zod.def` (the input side of pipes and
 * preprocessors), honouring lengths, bounds, formats, regexes it can satisfy, enums and literals. Values a
 * schema's refinements or transforms would refuse are possible; `validValue` retries a few times and keeps
 * one the schema accepts when it finds one.
 */
import type { z } from 'zod';
import type { Rng } from '@shop/test-support/prng';
import { FileValue, setKey } from './json-text.ts';

/** A 1 x 1 PNG that decodes (the shop re-encodes every upload, so a bare signature and header is refused). */
export const TINY_PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da636460f85f0f0002870180eb47ba920000000049454e44ae426082',
  'hex',
);

interface Def {
  type: string;
  [key: string]: unknown;
}
interface Check {
  check: string;
  minimum?: number;
  maximum?: number;
  length?: number;
  value?: number | bigint;
  inclusive?: boolean;
  format?: string;
  pattern?: RegExp;
}
type Schema = z.ZodType;

const defOf = (s: Schema): Def => (s as unknown as { _zod: { def: Def } })._zod.def;
const checksOf = (d: Def): Check[] =>
  ((d.checks as Array<{ _zod: { def: Check } }> | undefined) ?? []).map((c) => c._zod.def);
/** Whether an object member may be left out (optional, defaulted). */
export const isOptional = (s: Schema): boolean => {
  try {
    return s.safeParse(undefined).success;
  } catch {
    return false;
  }
};
export const accepts = (s: Schema, v: unknown): boolean => {
  try {
    return s.safeParse(forParse(v)).success;
  } catch {
    return false;
  }
};

/**
 * Values a caller knows to exist (seeded ids, codes), by path-parameter key (`param:/api/products/:id`, or
 * one method's own: `param:DELETE /api/products/:id`) or by field name (`field:productId`): used most of the
 * time where they match, so handlers find their rows.
 */
export type Hints = Record<string, readonly string[]>;

export interface GenContext {
  rng: Rng;
  hints: Hints;
  /** Field name of the value being generated (for hints), if any. */
  field?: string;
  depth?: number;
}

const WORDS = ['kurta', 'saree', 'cotton', 'Bengaluru', 'Blue', 'M', 'XL', 'Men', 'Women', 'silk', 'लिनन', 'Fab India'];
const CANDIDATES = [
  'abc',
  'a1',
  'ABC123',
  'SAVE10',
  'a-b_c',
  '560001',
  '110001',
  '+919876543210',
  '9876543210',
  '#a1b2c3',
  '2026-01-15',
  '1990-05-17',
  'https://example.com/a.png',
  '/uploads/a.png',
  'M',
  'Men',
  'true',
  'false',
  '10',
  '1.5',
];

function formatted(format: string, rng: Rng): string | undefined {
  switch (format) {
    case 'email':
      return `fuzz${rng.int(0, 99999)}@example.in`;
    case 'date':
      return `19${rng.int(50, 99)}-0${rng.int(1, 9)}-${rng.int(10, 28)}`;
    case 'datetime':
      return new Date(Date.UTC(2026, rng.int(0, 11), rng.int(1, 28))).toISOString();
    case 'time':
      return '10:30:00';
    case 'uuid':
    case 'guid':
      return '123e4567-e89b-42d3-a456-426614174000'.replace(/7/g, () => String(rng.int(0, 9)));
    case 'url':
      return 'https://example.com/a.png';
    case 'ipv4':
      return '10.0.0.1';
    case 'ipv6':
      return '::1';
    case 'e164':
      return '+919876543210';
    default:
      return undefined;
  }
}

function validString(def: Def, ctx: GenContext): string {
  const { rng } = ctx;
  const checks = checksOf(def);
  let min = 0;
  let max = 40;
  const patterns: RegExp[] = [];
  let format = typeof def.format === 'string' ? def.format : undefined;
  if (def.pattern instanceof RegExp && format && format !== 'regex') {
    // a format schema (z.email() ...) carries its own pattern; the format generator satisfies it
  } else if (def.pattern instanceof RegExp) patterns.push(def.pattern);
  for (const c of checks) {
    if (c.check === 'min_length' && c.minimum !== undefined) min = Math.max(min, c.minimum);
    if (c.check === 'max_length' && c.maximum !== undefined) max = Math.min(max === 40 ? c.maximum : max, c.maximum);
    if (c.check === 'length_equals' && c.length !== undefined) min = max = c.length;
    if (c.check === 'string_format') {
      if (c.format === 'regex' && c.pattern) patterns.push(c.pattern);
      else if (c.format) format = c.format;
    }
  }
  const fits = (s: string) => s.length >= min && s.length <= max && patterns.every((p) => p.test(s));
  const hinted = ctx.field ? ctx.hints[`field:${ctx.field}`] : undefined;
  if (hinted?.length && rng.chance(0.7)) {
    const h = rng.pick(hinted);
    if (fits(h)) return h;
  }
  if (format && format !== 'regex') {
    const f = formatted(format, rng);
    if (f !== undefined) return f;
  }
  if (patterns.length > 0) {
    const fitting = CANDIDATES.filter(fits);
    if (fitting.length) return rng.pick(fitting);
  }
  const target = Math.min(max, Math.max(min, rng.int(min, Math.min(max, min + 24))));
  let s = rng.pick(WORDS);
  while (s.length < target) s += ` ${rng.pick(WORDS)}`;
  s = s.slice(0, Math.max(target, min));
  if (s.trim() === '' && min > 0) s = 'x'.repeat(min);
  return s;
}

function validNumber(def: Def, rng: Rng): number {
  let lo = -1000;
  let hi = 100_000;
  let int = def.type === 'int' || def.type === 'bigint';
  let loSet = false;
  for (const c of checksOf(def)) {
    if (c.check === 'greater_than' && c.value !== undefined) {
      lo = Number(c.value) + (c.inclusive ? 0 : int ? 1 : 0.01);
      loSet = true;
    }
    if (c.check === 'less_than' && c.value !== undefined) hi = Number(c.value) - (c.inclusive ? 0 : int ? 1 : 0.01);
    if (c.check === 'number_format' && c.format && /int/.test(c.format)) int = true;
  }
  if (!loSet) lo = 0; // prices, quantities, percentages: mostly non-negative in this shop
  // mostly small (quantities, rupees), sometimes large
  hi = Math.min(
    hi,
    lo +
      rng.weighted([
        [4, 5],
        [3, 100],
        [2, 5000],
        [1, 100_000],
      ]),
  );
  const v = lo + rng.next() * (hi - lo);
  return int ? Math.max(Math.ceil(lo), Math.min(Math.floor(hi), Math.round(v))) : Math.round(v * 100) / 100;
}

/** One value the schema is meant to accept (best effort: refinements and custom checks are not read). */
export function generateValid(schema: Schema, ctx: GenContext): unknown {
  const { rng } = ctx;
  const depth = ctx.depth ?? 0;
  const def = defOf(schema);
  const inner = (s: Schema, extra: Partial<GenContext> = {}) =>
    generateValid(s, { ...ctx, depth: depth + 1, ...extra });
  // A known value for this field (a seeded id, a real coupon code), when the schema takes it.
  const hinted = ctx.field ? ctx.hints[`field:${ctx.field}`] : undefined;
  if (hinted?.length && rng.chance(0.7)) {
    const h = rng.pick(hinted);
    if (accepts(schema, h)) return h;
  }
  switch (def.type) {
    case 'string': {
      const v = validString(def, ctx);
      if (accepts(schema, v)) return v;
      // a refinement it cannot read: a known-good candidate the schema takes, if any
      const hinted = ctx.field ? (ctx.hints[`field:${ctx.field}`] ?? []) : [];
      const fitting = [...hinted, ...CANDIDATES].filter((c) => accepts(schema, c));
      return fitting.length ? rng.pick(fitting) : v;
    }
    case 'number':
    case 'int':
      return validNumber(def, rng);
    case 'bigint':
      return validNumber(def, rng);
    case 'boolean':
      return rng.chance(0.5);
    case 'null':
      return null;
    case 'undefined':
    case 'void':
    case 'never':
      return undefined;
    case 'nan':
      return NaN;
    case 'date':
      return new Date(Date.UTC(2026, 0, rng.int(1, 28))).toISOString();
    case 'literal':
      return rng.pick(def.values as unknown[]);
    case 'enum':
      return rng.pick(Object.values(def.entries as Record<string, unknown>));
    case 'template_literal':
      return '';
    case 'object': {
      const out: Record<string, unknown> = {};
      const shape = def.shape as Record<string, Schema>;
      for (const [key, s] of Object.entries(shape)) {
        if (isOptional(s) && rng.chance(depth > 3 ? 0.7 : 0.3)) continue;
        const v = inner(s, { field: key });
        if (v !== undefined) setKey(out, key, v);
      }
      return out;
    }
    case 'array': {
      let min = 0;
      let max = 3;
      for (const c of checksOf(def)) {
        if (c.check === 'min_length' && c.minimum !== undefined) min = c.minimum;
        if (c.check === 'max_length' && c.maximum !== undefined) max = Math.min(max, c.maximum);
        if (c.check === 'length_equals' && c.length !== undefined) min = max = c.length;
      }
      const n = depth > 6 ? min : rng.int(min, Math.max(min, max));
      return Array.from({ length: n }, () => inner(def.element as Schema, { field: ctx.field }));
    }
    case 'tuple':
      return (def.items as Schema[]).map((s) => inner(s));
    case 'record': {
      const out: Record<string, unknown> = {};
      const n = depth > 6 ? 0 : rng.int(0, 3);
      for (let i = 0; i < n; i++) {
        const k = inner(def.keyType as Schema);
        setKey(out, typeof k === 'string' ? k : `k${i}`, inner(def.valueType as Schema));
      }
      return out;
    }
    case 'map':
    case 'set':
      return [];
    case 'union': {
      const options = def.options as Schema[];
      return inner(rng.pick(options), { field: ctx.field });
    }
    case 'intersection': {
      const l = inner(def.left as Schema, { field: ctx.field });
      const r = inner(def.right as Schema, { field: ctx.field });
      return l && r && typeof l === 'object' && typeof r === 'object' ? { ...l, ...r } : l;
    }
    case 'optional':
      return rng.chance(0.1) ? undefined : inner(def.innerType as Schema, { field: ctx.field });
    case 'nullable':
      return rng.chance(0.15) ? null : inner(def.innerType as Schema, { field: ctx.field });
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
    case 'success':
      return inner(def.innerType as Schema, { field: ctx.field });
    case 'lazy':
      return depth > 8 ? null : inner((def.getter as () => Schema)(), { field: ctx.field });
    case 'pipe': {
      // What the output side wants, when the input side takes it too (z.string().trim().pipe(z.email()),
      // z.preprocess(f, z.number().int())); else the input side.
      const from = def.in as Schema;
      const to = def.out as Schema;
      if (defOf(to).type !== 'transform') {
        const v = inner(to, { field: ctx.field });
        if (defOf(from).type === 'transform' || accepts(from, v)) return v;
      }
      return inner(from, { field: ctx.field });
    }
    case 'file':
      return new FileValue(`photo${rng.int(0, 99)}.png`, 'image/png', TINY_PNG);
    case 'transform':
    case 'custom':
    case 'any':
    case 'unknown':
    default:
      return rng.pick<unknown>(['x', 1, true, null, { a: 1 }, [1]]);
  }
}

/** The value as the server would see it: files as File objects (multer's, in the handler). */
function forParse(v: unknown): unknown {
  if (v instanceof FileValue) return new File([v.bytes], v.filename, { type: v.contentType });
  if (v && typeof v === 'object' && !Array.isArray(v) && Object.values(v).some((x) => x instanceof FileValue))
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, forParse(x)]));
  return v;
}

/** A value the schema accepts, when one of a few attempts gives one; else the last attempt. */
export function validValue(schema: Schema, ctx: GenContext, attempts = 6): unknown {
  let last: unknown;
  for (let i = 0; i < attempts; i++) {
    last = generateValid(schema, ctx);
    if (schema.safeParse(forParse(last)).success) return last;
  }
  return last;
}
