import { defineProjection } from '@shop/shared/bus/projection';
import type { HomepageEvent } from '../../homepage/events.ts';

export const HOMEPAGE_PROJECTION = 'catalog.homepage';

/** catalog.homepage: the one row of home page configuration in force (absent = never saved). */
export const homepageProjection = defineProjection<HomepageEvent>({
  name: HOMEPAGE_PROJECTION,
  schema: 'catalog',
  sources: ['catalog'],
  on: {
    async HomepageConfigured(d, tx) {
      await tx.query(
        `INSERT INTO catalog.homepage (singleton, carousel, sections, configured_at)
         VALUES (true, $1::jsonb, $2::jsonb, $3)
         ON CONFLICT (singleton) DO UPDATE SET carousel = EXCLUDED.carousel, sections = EXCLUDED.sections,
           configured_at = EXCLUDED.configured_at`,
        // JSON text, so a sections value of null is stored as JSON null, and no sections at all as SQL NULL
        [JSON.stringify(d.carousel), 'sections' in d ? JSON.stringify(d.sections) : null, d.configuredAt],
      );
    },
  },
});
