/** Events of the `home-section-<id>` stream: an admin-curated row of products or collections on the home page. */

/** Text styles the admin can pick (seed 001, Homepage section): effects, then font names. */
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

export const CONTENT_TYPES = ['products', 'collections'] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

export interface HomeSectionDetails {
  name: string;
  contentType: ContentType;
  /** Product or collection ids (by contentType), in the order the section shows them. */
  contentIds: string[];
  textStyle: TextStyle;
  /** Hex colour, #RGB or #RRGGBB. */
  textColor: string;
  backgroundColor: string;
  textSize: TextSize;
  displayOrder: number;
  isActive: boolean;
}

export type HomeSectionCreated = {
  type: 'HomeSectionCreated';
  data: HomeSectionDetails & { sectionId: string; createdAt: string };
};
export type HomeSectionChanged = {
  type: 'HomeSectionChanged';
  data: Partial<HomeSectionDetails> & { sectionId: string; changedAt: string };
};
export type HomeSectionDeleted = { type: 'HomeSectionDeleted'; data: { sectionId: string; at: string } };
export type HomeSectionEvent = HomeSectionCreated | HomeSectionChanged | HomeSectionDeleted;

export const homeSectionStreamId = (sectionId: string) => `home-section-${sectionId}`;
