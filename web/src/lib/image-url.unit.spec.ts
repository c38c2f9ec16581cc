import { describe, expect, it } from 'vitest';
import { imageSrcSets, resolveImageUrl } from './image-url';

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

describe('imageSrcSets', () => {
  it("lists a photo's renditions by width in each format, under the server origin", () => {
    expect(imageSrcSets('/uploads/abc-123_w320-480/480.jpg', 'https://shop.example')).toEqual({
      webp: 'https://shop.example/uploads/abc-123_w320-480/320.webp 320w, https://shop.example/uploads/abc-123_w320-480/480.webp 480w',
      jpg: 'https://shop.example/uploads/abc-123_w320-480/320.jpg 320w, https://shop.example/uploads/abc-123_w320-480/480.jpg 480w',
    });
  });

  it('gives null for images the naming rule does not describe', () => {
    for (const image of [
      null,
      '',
      '/uploads/seed/kurta.svg',
      '/uploads/abc.png',
      'https://cdn.example/a_w320/320.jpg/x',
    ])
      expect(imageSrcSets(image, 'https://shop.example')).toBeNull();
    // the widest listed width must be the file named
    expect(imageSrcSets('/uploads/abc_w320-640/320.jpg', 'https://shop.example')).toBeNull();
  });
});
