/**
 * What an admin may pick for a homepage section (seed 001, Homepage section), in the seed's order. Pure
 * constants: the catalog's home-section API checks a section against them, and the web app's admin form
 * offers them and its storefront draws them.
 */

/** Text styles: the plain looks first, then the font names. */
export const TEXT_STYLES = [
  'default',
  'outline',
  'bold',
  'italic',
  'uppercase',
  'lowercase',
  'thin-outline',
  'Avenir',
  'PHOSPHATE',
  'Courier',
  'Chalkboard',
  'Open Sans',
  'Vacations in Paradise',
  'Snell Roundhand',
  "DAN'S DISNEY",
  'Papyrus',
  'Comic Sans',
  'Trattatello',
] as const;
export type TextStyle = (typeof TEXT_STYLES)[number];

export const TEXT_SIZES = ['small', 'normal', 'big'] as const;
export type TextSize = (typeof TEXT_SIZES)[number];

/** What a section lists. */
export const CONTENT_TYPES = ['products', 'collections'] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];
