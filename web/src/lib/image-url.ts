import { env } from '@/config/env';
import { photoRenditions, type PhotoFormat } from '@shop/shared/contracts/photo-renditions';

/** The URL to load a product image from: http(s) URLs as given, other paths under the server origin. */
export function resolveImageUrl(
  image: string | null | undefined,
  serverOrigin: string = env.serverOrigin,
): string | null {
  if (!image) return null;
  if (image.startsWith('http')) return image;
  return `${serverOrigin}${image.startsWith('/') ? '' : '/'}${image}`;
}

/**
 * An uploaded photo's `srcset` in each format ('<url> <width>w, ...'), from the photo naming rule
 * (@shop/shared/contracts/photo-renditions); null for an image with no renditions (an older upload, a
 * seeded SVG, an http URL), which is shown from its one URL.
 */
export function imageSrcSets(
  image: string | null | undefined,
  serverOrigin: string = env.serverOrigin,
): Record<PhotoFormat, string> | null {
  const renditions = photoRenditions(image);
  if (!renditions) return null;
  const srcSet = (format: PhotoFormat) =>
    renditions.widths
      .map((width) => `${resolveImageUrl(renditions.path(width, format), serverOrigin)} ${width}w`)
      .join(', ');
  return { webp: srcSet('webp'), jpg: srcSet('jpg') };
}

/** `sizes` of the small square thumbnails (admin lists, cart and checkout lines: 3 to 7rem boxes). */
export const THUMBNAIL_SIZES = '8rem';
