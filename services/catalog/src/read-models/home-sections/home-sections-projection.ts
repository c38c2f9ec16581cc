import { changedColumns } from '@shop/shared/bus/projection';
import { defineReadModel, readModelConsumer } from '@shop/shared/bus/projection-read-model';
import { table } from '@shop/shared/bus/projection-rows';
import type { EventConsumer } from '@shop/shared/bus/types';
import type { HomeSectionEvent } from '../../home-section/events.ts';

export const HOME_SECTIONS_PROJECTION = 'catalog.home_sections';

/** HomeSectionChanged: its fields' columns. */
const DETAIL_COLUMNS: Record<string, string> = {
  name: 'name',
  contentType: 'content_type',
  contentIds: 'content_ids',
  textStyle: 'text_style',
  textColor: 'text_color',
  backgroundColor: 'background_color',
  textSize: 'text_size',
  displayOrder: 'display_order',
  isActive: 'is_active',
};

const tables = {
  sections: table('catalog.home_sections', {
    key: ['id'],
    columns: ['id', ...Object.values(DETAIL_COLUMNS), 'created_at', 'updated_at'],
  }),
};

/**
 * catalog.home_sections: the homepage sections list. Content ids are kept as the admin chose them; what
 * they point at (products, collections) is resolved at read time, so stream order across aggregates never
 * matters here.
 */
export const homeSectionsReadModel = defineReadModel<HomeSectionEvent, typeof tables>({
  name: HOME_SECTIONS_PROJECTION,
  schema: 'catalog',
  sources: ['catalog'],
  tables,
  evolve: {
    HomeSectionCreated(d, { sections }) {
      sections.insert({
        id: d.sectionId,
        name: d.name,
        content_type: d.contentType,
        content_ids: d.contentIds,
        text_style: d.textStyle,
        text_color: d.textColor,
        background_color: d.backgroundColor,
        text_size: d.textSize,
        display_order: d.displayOrder,
        is_active: d.isActive,
        created_at: d.createdAt,
        updated_at: d.createdAt,
      });
    },
    HomeSectionChanged({ sectionId, changedAt, ...changes }, { sections }) {
      const { columns, values } = changedColumns(changes, DETAIL_COLUMNS);
      sections.update(sectionId, {
        ...Object.fromEntries(columns.map((c, i) => [c, values[i]])),
        updated_at: changedAt,
      });
    },
    HomeSectionDeleted(d, { sections }) {
      sections.delete(d.sectionId);
    },
  },
});

export function homeSectionsProjection(): EventConsumer {
  return readModelConsumer(homeSectionsReadModel);
}
