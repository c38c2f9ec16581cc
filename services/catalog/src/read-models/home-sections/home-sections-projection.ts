import { changedDetailsUpdate, defineProjection } from '@shop/shared/bus/projection';
import type { EventConsumer } from '@shop/shared/bus/types';
import type { HomeSectionEvent } from '../../home-section/events.ts';

export const HOME_SECTIONS_PROJECTION = 'catalog.home_sections';

/** HomeSectionChanged: its fields' columns. */
const updateDetails = changedDetailsUpdate('catalog.home_sections', {
  name: 'name',
  contentType: 'content_type',
  contentIds: 'content_ids',
  textStyle: 'text_style',
  textColor: 'text_color',
  backgroundColor: 'background_color',
  textSize: 'text_size',
  displayOrder: 'display_order',
  isActive: 'is_active',
});

/**
 * catalog.home_sections: the homepage sections list. Content ids are kept as the admin chose them; what
 * they point at (products, collections) is resolved at read time, so stream order across aggregates never
 * matters here.
 */
export function homeSectionsProjection(): EventConsumer {
  return defineProjection<HomeSectionEvent>({
    name: HOME_SECTIONS_PROJECTION,
    schema: 'catalog',
    sources: ['catalog'],
    on: {
      async HomeSectionCreated(d, tx) {
        await tx.query(
          `INSERT INTO catalog.home_sections (id, name, content_type, content_ids, text_style, text_color,
             background_color, text_size, display_order, is_active, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11) ON CONFLICT (id) DO NOTHING`,
          [
            d.sectionId,
            d.name,
            d.contentType,
            d.contentIds,
            d.textStyle,
            d.textColor,
            d.backgroundColor,
            d.textSize,
            d.displayOrder,
            d.isActive,
            d.createdAt,
          ],
        );
      },
      async HomeSectionChanged({ sectionId, changedAt, ...changes }, tx) {
        await updateDetails(tx, sectionId, changedAt, changes);
      },
      async HomeSectionDeleted(d, tx) {
        await tx.query(`DELETE FROM catalog.home_sections WHERE id = $1`, [d.sectionId]);
      },
    },
  });
}
