import type { Product } from '@/types/api';

/** The size map an empty form starts with (seed 001: S, M, L, XL at 0). */
export const DEFAULT_SIZE_LABELS = Object.freeze(['S', 'M', 'L', 'XL']);

export type SizeRow = { label: string; quantity: number };

export type ProductFormValues = {
  name: string;
  price: string;
  description: string;
  category: string;
  quantity: string;
  size: string;
  color: string;
  brand: string;
  material: string;
  sizes: SizeRow[];
};

export const FILL_REQUIRED_MESSAGE = 'Please fill name, price, and quantity';

export function emptyProductForm(): ProductFormValues {
  return {
    name: '',
    price: '',
    description: '',
    category: '',
    quantity: '',
    size: '',
    color: '',
    brand: '',
    material: '',
    sizes: DEFAULT_SIZE_LABELS.map((label) => ({ label, quantity: 0 })),
  };
}

/** The form filled from a product being edited; its own size labels, or the default map when it has none. */
export function productToForm(product: Product): ProductFormValues {
  const entries = Object.entries(product.sizeQuantities);
  return {
    name: product.name,
    price: String(product.price),
    description: product.description,
    category: product.category,
    quantity: String(product.quantity),
    size: product.size,
    color: product.color,
    brand: product.brand,
    material: product.material,
    sizes:
      entries.length > 0
        ? entries.map(([label, quantity]) => ({ label, quantity: toSizeQuantity(String(quantity)) }))
        : emptyProductForm().sizes,
  };
}

/** A per-size quantity as typed, kept a whole number of at least 0 (blank or junk is 0). */
export function toSizeQuantity(input: string): number {
  const value = Number(input);
  if (!Number.isFinite(value)) return 0;
  return Math.max(0, Math.trunc(value));
}

/** Adds a size label (trimmed) unless it is blank or already there, ignoring case; the rows otherwise unchanged. */
export function addSizeLabel(sizes: readonly SizeRow[], input: string): { sizes: SizeRow[]; added: boolean } {
  const label = input.trim();
  if (!label || sizes.some((row) => row.label.toLowerCase() === label.toLowerCase())) {
    return { sizes: [...sizes], added: false };
  }
  return { sizes: [...sizes, { label, quantity: 0 }], added: true };
}

/** Units across all sizes. */
export function sizeTotal(sizes: readonly SizeRow[]): number {
  return sizes.reduce((sum, row) => sum + row.quantity, 0);
}

function isNumber(text: string): boolean {
  return text.trim() !== '' && Number.isFinite(Number(text));
}

/**
 * What the form sends, or the seed's message when name, price or quantity is missing. A product with
 * units in its sizes is sold by size: its quantity is their sum (the server's rule), whatever was typed.
 */
export function buildProductPayload(
  values: ProductFormValues,
): { ok: true; payload: ProductPayload } | { ok: false; message: string } {
  const bySize = sizeTotal(values.sizes);
  const quantityText = bySize > 0 ? String(bySize) : values.quantity;
  if (!values.name.trim() || !isNumber(values.price) || !isNumber(quantityText)) {
    return { ok: false, message: FILL_REQUIRED_MESSAGE };
  }
  return {
    ok: true,
    payload: {
      name: values.name.trim(),
      price: Number(values.price),
      description: values.description,
      category: values.category.trim(),
      quantity: Number(quantityText),
      size: values.size,
      color: values.color,
      brand: values.brand,
      material: values.material,
      sizeQuantities: Object.fromEntries(values.sizes.map((row) => [row.label, row.quantity])),
    },
  };
}

/** A product's own fields as the form sends them: all but the id, the image (sent as a file) and the listing flag. */
export type ProductPayload = Omit<Product, 'id' | 'image' | 'isDelisted'>;

/** The multipart body of POST /products (and of PUT with a new image): sizeQuantities as JSON. */
export function productFormData(payload: ProductPayload, image: File | null): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(payload)) {
    form.append(key, key === 'sizeQuantities' ? JSON.stringify(value) : String(value));
  }
  if (image) form.append('image', image);
  return form;
}

/** True for a file the browser reports as an image (the form takes images only). */
export function isImageFile(file: Pick<File, 'type'>): boolean {
  return file.type.startsWith('image/');
}
