import { defineReadModel, readModelConsumer } from '@shop/shared/bus/projection-read-model';
import { table } from '@shop/shared/bus/projection-rows';
import type { HomepageEvent } from '../../homepage/events.ts';

export const HOMEPAGE_PROJECTION = 'catalog.homepage';

const tables = {
  homepage: table('catalog.homepage', {
    key: ['singleton'],
    columns: ['singleton', 'carousel', 'sections', 'configured_at'],
  }),
};

/** catalog.homepage: the one row of home page configuration in force (absent = never saved). */
export const homepageReadModel = defineReadModel<HomepageEvent, typeof tables>({
  name: HOMEPAGE_PROJECTION,
  schema: 'catalog',
  sources: ['catalog'],
  tables,
  evolve: {
    HomepageConfigured(d, { homepage }) {
      // JSON text, so a sections value of null is stored as JSON null, and no sections at all as SQL NULL
      homepage.put({
        singleton: true,
        carousel: JSON.stringify(d.carousel),
        sections: 'sections' in d ? JSON.stringify(d.sections) : null,
        configured_at: d.configuredAt,
      });
    },
  },
});

export const homepageProjection = readModelConsumer(homepageReadModel);
