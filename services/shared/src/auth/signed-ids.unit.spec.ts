import { describe, expect, it } from 'vitest';
import { SignedIds } from './signed-ids.ts';

const SECRET = 'a-secret-long-enough-for-the-tests-here';
const ids = new SignedIds(SECRET, 'some-purpose', /^[A-Za-z0-9_-]{1,100}$/);

describe('SignedIds', () => {
  it('reads back the id of a value it signed, and says the same in every process of the shop', () => {
    const value = ids.sign('order_Abc123');
    expect(value).toMatch(/^order_Abc123\.[A-Za-z0-9_-]{43}$/);
    expect(ids.read(value)).toBe('order_Abc123');
    expect(new SignedIds(SECRET, 'some-purpose', /^.+$/).read(value)).toBe('order_Abc123');
  });

  it('reads nothing from a tampered, swapped, foreign or malformed value', () => {
    const value = ids.sign('order_Abc123');
    const mac = value.slice(value.indexOf('.') + 1);
    const flipped = `${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`;
    const bad = [
      `order_Abc123.${flipped}`,
      `order_Abc124.${mac}`, // another id under this id's MAC
      new SignedIds('another-secret-long-enough-for-tests', 'some-purpose', /^.+$/).sign('order_Abc123'),
      new SignedIds(SECRET, 'another-purpose', /^.+$/).sign('order_Abc123'),
      'order_Abc123',
      `order_Abc123.${mac}x`,
      `order_Abc123.${mac.slice(1)}`,
      `.${mac}`,
      `order Abc123.${mac}`,
      '',
    ];
    for (const v of bad) expect(ids.read(v), v).toBeNull();
  });

  it('refuses to sign an id outside its pattern', () => {
    expect(() => ids.sign('a.b')).toThrow();
    expect(() => ids.sign('')).toThrow();
  });
});
