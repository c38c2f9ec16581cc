import { env } from '@/config/env';

/** The URL to load a product image from: http(s) URLs as given, other paths under the server origin. */
export function resolveImageUrl(
  image: string | null | undefined,
  serverOrigin: string = env.serverOrigin,
): string | null {
  if (!image) return null;
  if (image.startsWith('http')) return image;
  return `${serverOrigin}${image.startsWith('/') ? '' : '/'}${image}`;
}
