import type { EventConsumer } from '@shop/shared/bus/types';
import type { HomepageEvent } from '../../homepage/events.ts';

export const HOMEPAGE_PROJECTION = 'catalog.homepage';

/** catalog.homepage: the one row of home page configuration in force (absent = never saved). */
export const homepageProjection: EventConsumer = {
  name: HOMEPAGE_PROJECTION,
  schema: 'catalog',
  sources: ['catalog'],
  eventTypes: ['HomepageConfigured'],
  async handle(event, tx) {
    const e = { type: event.type, data: event.data } as HomepageEvent;
    switch (e.type) {
      case 'HomepageConfigured': {
        const d = e.data;
        await tx.query(
          `INSERT INTO catalog.homepage (singleton, carousel, sections, configured_at)
           VALUES (true, $1::jsonb, $2::jsonb, $3)
           ON CONFLICT (singleton) DO UPDATE SET carousel = EXCLUDED.carousel, sections = EXCLUDED.sections,
             configured_at = EXCLUDED.configured_at`,
          // JSON text, so a sections value of null is stored as JSON null, and no sections at all as SQL NULL
          [JSON.stringify(d.carousel), 'sections' in d ? JSON.stringify(d.sections) : null, d.configuredAt],
        );
        return;
      }
      default: {
        const never: never = e.type;
        throw new Error(`Unhandled event ${String(never)}`);
      }
    }
  },
};
