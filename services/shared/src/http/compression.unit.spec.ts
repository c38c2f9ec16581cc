import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { EncodedBody } from './compression.ts';

/** The hot list's compressed forms are made once per body, not once per request. */
describe('EncodedBody', () => {
  const bytes = Buffer.from(JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ id: i, name: `Kurta ${i}` }))));

  it('makes each compressed form once and hands the same bytes to every later reader', async () => {
    const body = new EncodedBody(bytes);
    const first = body.encoded('gzip');
    expect(body.encoded('gzip')).toBe(first);
    const gz = await first;
    expect(await body.encoded('gzip')).toBe(gz);
    expect(gunzipSync(gz).equals(bytes)).toBe(true);
    expect(brotliDecompressSync(await body.encoded('br')).equals(bytes)).toBe(true);
  });

  it('a new body (the list changed) is compressed anew', async () => {
    const before = await new EncodedBody(bytes).encoded('br');
    const changed = Buffer.concat([bytes.subarray(0, -1), Buffer.from(',{"id":100}]')]);
    const after = await new EncodedBody(changed).encoded('br');
    expect(brotliDecompressSync(after).equals(changed)).toBe(true);
    expect(after.equals(before)).toBe(false);
  });
});
