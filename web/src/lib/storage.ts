// Browser storage under the keys the seed names. Reads and writes never throw: storage can be full,
// disabled (private mode) or hold something another version of the app wrote.

export const storageKeys = Object.freeze({
  user: 'user',
  token: 'token',
  cart: 'cart',
  /** This browser's own unpaid checkout (all tabs share it): see checkout's OpenCheckout. */
  openCheckout: 'openCheckout',
});
export type StorageKey = (typeof storageKeys)[keyof typeof storageKeys];

/** Returns the stored string, or null when absent or storage is unavailable. */
export function readStoredText(key: StorageKey): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Returns the stored value parsed as JSON, or undefined when absent or not valid JSON. */
export function readStoredJson(key: StorageKey): unknown {
  const text = readStoredText(key);
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Stores a string; null removes the key. */
export function writeStoredText(key: StorageKey, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Storage full or disabled: the in-memory state stays correct for this visit.
  }
}

/** Stores a value as JSON. */
export function writeStoredJson(key: StorageKey, value: unknown): void {
  writeStoredText(key, JSON.stringify(value));
}

/**
 * This tab's own drafts (sessionStorage: kept across a reload, gone with the tab, never shared with another tab or
 * a later visitor of a shared phone).
 */
export const sessionKeys = Object.freeze({
  /** What the shopper typed in checkout's shipping form, so a reload during payment does not lose it. */
  checkoutShipping: 'checkoutShipping',
});
export type SessionKey = (typeof sessionKeys)[keyof typeof sessionKeys];

/** Returns this tab's stored value parsed as JSON, or undefined when absent, unreadable or not JSON. */
export function readSessionJson(key: SessionKey): unknown {
  try {
    const text = window.sessionStorage.getItem(key);
    return text === null ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

/** Stores a value as JSON for this tab; undefined removes the key. */
export function writeSessionJson(key: SessionKey, value: unknown): void {
  try {
    if (value === undefined) window.sessionStorage.removeItem(key);
    else window.sessionStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the form keeps its values for this page.
  }
}
