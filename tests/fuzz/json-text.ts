/**
 * JSON text for fuzzed bodies. Values are plain JS values, except `Raw` fragments, written as given: numbers
 * JSON.stringify cannot write (1e400, -0), NaN (not JSON at all) and nesting too deep to build as objects.
 * Keys such as `__proto__` are set as own properties (setKey), so they reach the text as keys.
 */
export class Raw {
  constructor(readonly text: string) {}
}

/** A file for a multipart part (z.file() fields); left out of JSON text. */
export class FileValue {
  constructor(
    readonly filename: string,
    readonly contentType: string,
    readonly bytes: Buffer,
  ) {}
}

/** Sets an own, enumerable property, even `__proto__` (a plain assignment would change the prototype). */
export function setKey(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/** `value` as JSON text; Raw fragments verbatim, undefined members left out (as JSON.stringify does). */
export function toJsonText(value: unknown): string {
  if (value instanceof Raw) return value.text;
  if (value === undefined || value instanceof FileValue) return 'null';
  if (Array.isArray(value)) return `[${value.map((v) => toJsonText(v)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const parts: string[] = [];
    for (const key of Object.keys(value)) {
      const v = (value as Record<string, unknown>)[key];
      if (v === undefined || v instanceof FileValue) continue;
      parts.push(`${JSON.stringify(key)}:${toJsonText(v)}`);
    }
    return `{${parts.join(',')}}`;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value); // NaN, Infinity: not JSON
  return JSON.stringify(value);
}

/** `levels` nested arrays or objects, built as text (no recursion anywhere). */
export function deepNesting(levels: number, kind: 'array' | 'object'): Raw {
  return kind === 'array'
    ? new Raw('['.repeat(levels) + ']'.repeat(levels))
    : new Raw('{"a":'.repeat(levels) + '1' + '}'.repeat(levels));
}
