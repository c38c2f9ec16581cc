import { z } from 'zod';

// Shapes of what the API sends, checked at the edge so the rest of the app can trust its types.
// The parsing is lenient where the server may reasonably differ (numbers sent as strings, missing
// optional text) and strict where a value is needed to work at all (id, name, price).

const optionalText = z
  .string()
  .nullish()
  .transform((value) => value ?? '');

const count = z.coerce.number().pipe(z.number().finite()).catch(0);

const sizeQuantities = z.preprocess(
  (value) => {
    // Some stores keep the size map as a JSON string column.
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return {};
    }
  },
  z
    .record(z.string(), count)
    .nullish()
    .transform((value) => value ?? {}),
);

export const productIdSchema = z.union([z.number(), z.string().min(1)]);
export type ProductId = z.infer<typeof productIdSchema>;

export const productSchema = z.object({
  id: productIdSchema,
  name: z.string(),
  /** Rupees, with paise as decimals. */
  price: z.coerce.number().pipe(z.number().finite()),
  description: optionalText,
  category: optionalText,
  /** Units in stock when the product is not tracked per size. */
  quantity: count,
  size: optionalText,
  color: optionalText,
  brand: optionalText,
  material: optionalText,
  /** A path such as /uploads/x.svg or an absolute http(s) URL; see resolveImageUrl. */
  image: z
    .string()
    .nullish()
    .transform((value) => value || null),
  /** Stock per size label. */
  sizeQuantities,
  isDelisted: z
    .boolean()
    .nullish()
    .transform((value) => value ?? false),
});
export type Product = z.infer<typeof productSchema>;

export const genderSchema = z.enum(['Male', 'Female', 'Other']);
export type Gender = z.infer<typeof genderSchema>;

export const userSchema = z.object({
  id: z.union([z.number(), z.string()]),
  name: z.string(),
  email: z.string(),
  phone: z
    .string()
    .nullish()
    .transform((value) => value ?? null),
  dob: z
    .string()
    .nullish()
    .transform((value) => value ?? null),
  gender: genderSchema
    .nullish()
    .catch(null)
    .transform((value) => value ?? null),
  isAdmin: z
    .boolean()
    .nullish()
    .transform((value) => value ?? false),
});
export type User = z.infer<typeof userSchema>;

export const authResultSchema = z.object({
  user: userSchema,
  token: z
    .string()
    .nullish()
    .transform((value) => value || null),
});
export type AuthResult = z.infer<typeof authResultSchema>;

/** Parses a product list, dropping entries that cannot be shown rather than failing the whole page. */
export function parseProductList(raw: unknown): Product[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((item) => {
    const parsed = productSchema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}
