/** Events of the `home-section-<id>` stream: an admin-curated row of products or collections on the home page. */

/** What an admin may pick for a section is a contract the web app shares. */
export { CONTENT_TYPES, TEXT_SIZES, TEXT_STYLES, type ContentType, type TextSize, type TextStyle } from './choices.ts';

import type { ContentType, TextSize, TextStyle } from './choices.ts';

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
