// Shapes of what the API sends, checked at the edge so the rest of the app can trust its types.
// The parsing is lenient where the server may reasonably differ (numbers sent as strings, missing
// optional text) and strict where a value is needed to work at all (id, name, price).
//
// Plain functions rather than a schema library: the session and the cart read these in the first load,
// where zod's core alone would weigh about a tenth of the page's JavaScript. Each parser has zod's
// `safeParse` shape, so parseAnswer() and callers read them like schemas.

/** The result of a parser: the value, or why it was refused (for developers; never shown to a user). */
export type ParseResult<T> = { success: true; data: T } | { success: false; error: string };

/** Anything with zod's `safeParse`: the parsers here, and zod schemas elsewhere. */
export type Parser<T> = { safeParse(raw: unknown): ParseResult<T> };

/** Thrown inside a parser to refuse the input; turned into a failed ParseResult by `parser`. */
class Refused extends Error {}

function refuse(reason: string): never {
  throw new Refused(reason);
}

/** A parser from a function that returns the value or calls refuse(). */
export function parser<T>(parse: (raw: unknown) => T): Parser<T> {
  return {
    safeParse(raw) {
      try {
        return { success: true, data: parse(raw) };
      } catch (error) {
        if (error instanceof Refused) return { success: false, error: error.message };
        throw error;
      }
    },
  };
}

export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function record(raw: unknown, what: string): Record<string, unknown> {
  return isPlainRecord(raw) ? raw : refuse(`${what}: expected an object`);
}

function text(value: unknown, field: string): string {
  return typeof value === 'string' ? value : refuse(`${field}: expected a string`);
}

/** Missing text is '' (a string of another type is refused). */
function optionalText(value: unknown, field: string): string {
  return value == null ? '' : text(value, field);
}

/** Missing text is null. */
function textOrNull(value: unknown, field: string): string | null {
  return value == null ? null : text(value, field);
}

/** A finite number, also from a numeric string (as `Number()` reads it). */
function finiteNumber(value: unknown, field: string): number {
  const number = typeof value === 'symbol' ? NaN : Number(value);
  return Number.isFinite(number) ? number : refuse(`${field}: expected a number`);
}

/** A count that falls back to 0 when it cannot be read. */
function count(value: unknown): number {
  try {
    return finiteNumber(value, 'count');
  } catch {
    return 0;
  }
}

function flag(value: unknown, field: string): boolean {
  if (value == null) return false;
  return typeof value === 'boolean' ? value : refuse(`${field}: expected true or false`);
}

function sizeQuantities(value: unknown): Record<string, number> {
  let map = value;
  // Some stores keep the size map as a JSON string column.
  if (typeof map === 'string') {
    try {
      map = JSON.parse(map) as unknown;
    } catch {
      map = {};
    }
  }
  if (map == null) return {};
  const sizes = record(map, 'sizeQuantities');
  return Object.fromEntries(Object.entries(sizes).map(([size, units]) => [size, count(units)]));
}

export type ProductId = number | string;

function parseProductId(value: unknown, field = 'id'): ProductId {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.length > 0) return value;
  return refuse(`${field}: expected a number or a non-empty string`);
}

export const productIdSchema: Parser<ProductId> = parser((raw) => parseProductId(raw));

export type Product = {
  id: ProductId;
  name: string;
  /** Rupees, with paise as decimals. */
  price: number;
  description: string;
  category: string;
  /** Units in stock when the product is not tracked per size. */
  quantity: number;
  size: string;
  color: string;
  brand: string;
  material: string;
  /** A path such as /uploads/x.svg or an absolute http(s) URL, or null; see resolveImageUrl. */
  image: string | null;
  /** Stock per size label. */
  sizeQuantities: Record<string, number>;
  isDelisted: boolean;
};

/** A product's fields from an API answer (unknown fields left out). */
export function readProduct(raw: unknown): Product {
  const item = record(raw, 'product');
  return {
    id: parseProductId(item.id),
    name: text(item.name, 'name'),
    price: finiteNumber(item.price, 'price'),
    description: optionalText(item.description, 'description'),
    category: optionalText(item.category, 'category'),
    quantity: count(item.quantity),
    size: optionalText(item.size, 'size'),
    color: optionalText(item.color, 'color'),
    brand: optionalText(item.brand, 'brand'),
    material: optionalText(item.material, 'material'),
    image: textOrNull(item.image, 'image') || null,
    sizeQuantities: sizeQuantities(item.sizeQuantities),
    isDelisted: flag(item.isDelisted, 'isDelisted'),
  };
}

export const productSchema: Parser<Product> = parser(readProduct);

export const GENDERS = ['Male', 'Female', 'Other'] as const;
export type Gender = (typeof GENDERS)[number];

export const genderSchema: Parser<Gender> = parser((raw) =>
  GENDERS.includes(raw as Gender) ? (raw as Gender) : refuse('gender: expected Male, Female or Other'),
);

export type User = {
  id: number | string;
  name: string;
  email: string;
  phone: string | null;
  dob: string | null;
  gender: Gender | null;
  isAdmin: boolean;
};

/** A user's fields from an API answer or browser storage (unknown fields left out). */
export function readUser(raw: unknown): User {
  const item = record(raw, 'user');
  const id = item.id;
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id))))
    refuse('id: expected a number or a string');
  return {
    id,
    name: text(item.name, 'name'),
    email: text(item.email, 'email'),
    phone: textOrNull(item.phone, 'phone'),
    dob: textOrNull(item.dob, 'dob'),
    // An unknown gender is shown as not given rather than refusing the user.
    gender: GENDERS.includes(item.gender as Gender) ? (item.gender as Gender) : null,
    isAdmin: flag(item.isAdmin, 'isAdmin'),
  };
}

export const userSchema: Parser<User> = parser(readUser);

export type AuthResult = { user: User; token: string | null };

export function readAuthResult(raw: unknown): AuthResult {
  const answer = record(raw, 'answer');
  return { user: readUser(answer.user), token: textOrNull(answer.token, 'token') || null };
}

export const authResultSchema: Parser<AuthResult> = parser(readAuthResult);

/**
 * The entries of a list answer that parse, dropping those that cannot be shown rather than failing a whole
 * screen; an answer that is not a list is an empty one. Takes the parsers here and zod schemas alike.
 */
export function parseEach<T>(
  schema: { safeParse(raw: unknown): { success: true; data: T } | { success: false } },
  raw: unknown,
): T[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((item) => {
    const parsed = schema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

/** The list of an answer sent bare or wrapped in an object under `key` (`{ users: [...] }`). */
export function listIn(raw: unknown, key: string): unknown {
  return isPlainRecord(raw) ? raw[key] : raw;
}

/** Parses a product list, dropping entries that cannot be shown rather than failing the whole page. */
export function parseProductList(raw: unknown): Product[] {
  return parseEach(productSchema, raw);
}
