/**
 * The seed's text styles of a homepage section, in its order: the plain looks first, then the font names.
 * One list for the admin form that picks a style and the storefront that draws it.
 */
export const SECTION_TEXT_STYLES = [
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
