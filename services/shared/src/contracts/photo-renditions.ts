/**
 * The one naming rule for an uploaded photo's renditions, read by the catalog (which writes them) and the web
 * app (which builds `srcset` from them). Pure: constants and functions, no runtime imports.
 *
 * An upload is decoded and re-encoded into a folder of renditions named after its id and the widths it was
 * rendered at, `<id>_w<w1>-<w2>-...-<wN>/`, holding `<w>.webp` and `<w>.jpg` for each width. The widths are
 * those of PHOTO_WIDTHS narrower than the photo (its longest side capped at PHOTO_MAX_SIDE), and the photo's
 * own width. The image path recorded for it (the product's, collection's or slide's `image`) is its widest
 * JPEG, `/uploads/<id>_w<w1>-...-<wN>/<wN>.jpg`: a plain image anywhere an image path is read, and the
 * list of what exists for anything that wants a smaller one. An image path of any other form (an older
 * upload stored as sent, a seeded SVG, an http URL) has no renditions.
 */

/** Rendition widths in pixels, narrowest first. */
export const PHOTO_WIDTHS: readonly number[] = [320, 640, 960, 1280, 1600];
/** The longest side of the widest rendition (a 4000 x 3000 phone photo becomes 1600 x 1200). */
export const PHOTO_MAX_SIDE = 1600;
/** The rendition formats, each width in both. */
export const PHOTO_FORMATS = ['webp', 'jpg'] as const;
export type PhotoFormat = (typeof PHOTO_FORMATS)[number];

/** The widths a photo of `width` x `height` pixels (upright) is rendered at. */
export function renditionWidths(width: number, height: number): number[] {
  const scale = Math.min(1, PHOTO_MAX_SIDE / Math.max(width, height));
  const widest = Math.max(1, Math.round(width * scale));
  return [...PHOTO_WIDTHS.filter((w) => w < widest), widest];
}

/** The folder (under /uploads) holding photo `id`'s renditions at `widths`. */
export const renditionFolder = (id: string, widths: readonly number[]): string => `${id}_w${widths.join('-')}`;

/** The image path recorded for photo `id` rendered at `widths`: its widest JPEG. */
export const photoImagePath = (id: string, widths: readonly number[]): string =>
  `/uploads/${renditionFolder(id, widths)}/${widths[widths.length - 1]}.jpg`;

/** An image path's renditions, or null when it has none (see the rule above). */
export interface PhotoRenditions {
  /** The photo's id (its original, as uploaded, is the admin's: GET /api/photos/{id}/original). */
  id: string;
  widths: number[];
  /** The path of the rendition `width` wide in `format`, beside the image path (same origin, same prefix). */
  path: (width: number, format: PhotoFormat) => string;
}

const RENDITIONS = /^(.*\/uploads\/([\w-]+)_w)(\d+(?:-\d+)*)\/(\d+)\.jpg$/;

export function photoRenditions(image: string | null | undefined): PhotoRenditions | null {
  const match = image ? RENDITIONS.exec(image) : null;
  if (!match) return null;
  const [, prefix, id, list, widest] = match as unknown as [string, string, string, string, string];
  const widths = list.split('-').map(Number);
  if (widths[widths.length - 1] !== Number(widest)) return null;
  const folder = `${prefix}${list}`;
  return { id, widths, path: (width, format) => `${folder}/${width}.${format}` };
}
