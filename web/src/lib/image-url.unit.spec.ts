import { describe, expect, it } from 'vitest';
import { resolveImageUrl } from './image-url';

describe('resolveImageUrl', () => {
  it('prefixes paths that do not start with http with the server origin', () => {
    expect(resolveImageUrl('/uploads/kurta.svg', 'https://shop.example')).toBe(
      'https://shop.example/uploads/kurta.svg',
    );
    expect(resolveImageUrl('uploads/kurta.svg', 'https://shop.example')).toBe('https://shop.example/uploads/kurta.svg');
  });

  it('keeps http(s) URLs as they are', () => {
    expect(resolveImageUrl('https://cdn.example/a.jpg', 'https://shop.example')).toBe('https://cdn.example/a.jpg');
  });

  it('gives null without an image', () => {
    expect(resolveImageUrl(null)).toBeNull();
    expect(resolveImageUrl('')).toBeNull();
  });
});
