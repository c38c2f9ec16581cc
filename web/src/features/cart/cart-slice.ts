import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { readStoredJson, storageKeys, writeStoredJson } from '@/lib/storage';
import { isPlainRecord, readProduct, type Product } from '@/types/api';

/** A cart line: the product's fields plus the chosen quantity, size and colour. */
export type CartLine = Omit<Product, 'quantity' | 'size' | 'color'> & {
  quantity: number;
  size: string | null;
  color: string | null;
};

export type CartState = {
  lines: CartLine[];
  /** Key of the line the cart-added notice is showing, or null when it is closed. */
  noticeLineKey: string | null;
};

/** A line's identity: product id + size (or 'no size') + colour (or 'no color'). */
export function cartLineKey(line: { id: Product['id']; size: string | null; color: string | null }): string {
  return [String(line.id), line.size ?? 'no size', line.color ?? 'no color'].join('|');
}

/** A stored line: a product's fields with the chosen quantity (a whole number above 0), size and colour. */
function readStoredLine(item: unknown): CartLine | null {
  if (!isPlainRecord(item)) return null;
  const { quantity, size, color } = item;
  if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity <= 0) return null;
  if ((size !== null && typeof size !== 'string') || (color !== null && typeof color !== 'string')) return null;
  try {
    const { quantity: _stock, size: _sizes, color: _colours, ...fields } = readProduct(item);
    return { ...fields, quantity, size, color };
  } catch {
    return null;
  }
}

/** The cart kept in browser storage under key cart; lines that cannot be read are dropped. */
export function readStoredCart(): CartLine[] {
  const stored = readStoredJson(storageKeys.cart);
  if (!Array.isArray(stored)) return [];
  return stored.flatMap((item) => {
    const line = readStoredLine(item);
    return line ? [line] : [];
  });
}

/** Mirrors the cart lines into browser storage. */
export function saveCart(lines: readonly CartLine[]): void {
  writeStoredJson(storageKeys.cart, lines);
}

export type CartLineRequest = { product: Product; size: string | null; color: string | null };

export const cartSlice = createSlice({
  name: 'cart',
  initialState: (): CartState => ({ lines: readStoredCart(), noticeLineKey: null }),
  reducers: {
    /** One more unit: the existing line's quantity rises by 1, else a new line with quantity 1. Stock is checked by addToCart. */
    cartLineAdded(state, action: PayloadAction<CartLineRequest>) {
      const { product, size, color } = action.payload;
      const key = cartLineKey({ id: product.id, size, color });
      const existing = state.lines.find((line) => cartLineKey(line) === key);
      if (existing) {
        existing.quantity += 1;
      } else {
        const { quantity: _stock, size: _sizes, color: _colours, ...fields } = product;
        state.lines.push({ ...fields, quantity: 1, size, color });
      }
      state.noticeLineKey = key;
    },
    cartLineRemoved(state, action: PayloadAction<string>) {
      state.lines = state.lines.filter((line) => cartLineKey(line) !== action.payload);
      if (state.noticeLineKey === action.payload) state.noticeLineKey = null;
    },
    cartCleared(state) {
      state.lines = [];
      state.noticeLineKey = null;
    },
    cartNoticeClosed(state) {
      state.noticeLineKey = null;
    },
  },
  selectors: {
    selectCartLines: (cart) => cart.lines,
    /** Distinct lines, not units: what the header badge shows. */
    selectCartLineCount: (cart) => cart.lines.length,
    selectCartSubtotal: (cart) => cart.lines.reduce((sum, line) => sum + line.price * line.quantity, 0),
    selectNoticeLine: (cart) =>
      cart.noticeLineKey === null
        ? null
        : (cart.lines.find((line) => cartLineKey(line) === cart.noticeLineKey) ?? null),
  },
});

export const { cartLineAdded, cartLineRemoved, cartCleared, cartNoticeClosed } = cartSlice.actions;
export const { selectCartLines, selectCartLineCount, selectCartSubtotal, selectNoticeLine } = cartSlice.selectors;
