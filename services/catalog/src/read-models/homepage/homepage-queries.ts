import type pg from 'pg';
import { paiseToRupees } from '@shop/shared/money/money';
import type { CarouselSlide } from '../../homepage/events.ts';

/** A carousel slide as the API answers it (price in rupees). */
export interface CarouselSlideView {
  name: string;
  price: number;
  image: string;
  lining: string;
  size: string;
  height: string;
}
/** The home page configuration: the carousel, and `sections` as the admin sent it (when ever sent). */
export interface HomepageView {
  carousel: CarouselSlideView[];
  sections?: unknown;
}

const slideView = (s: CarouselSlide): CarouselSlideView => ({
  name: s.name,
  price: paiseToRupees(s.pricePaise),
  image: s.image,
  lining: s.lining,
  size: s.size,
  height: s.height,
});

/** The configuration in force; `{carousel: []}` until an admin saves one. */
export async function readHomepage(db: pg.Pool): Promise<HomepageView> {
  const { rows } = await db.query<{ carousel: CarouselSlide[]; sections: unknown; has_sections: boolean }>(
    `SELECT carousel, sections, sections IS NOT NULL AS has_sections FROM catalog.homepage`,
  );
  const r = rows[0];
  if (!r) return { carousel: [] };
  return { carousel: r.carousel.map(slideView), ...(r.has_sections ? { sections: r.sections } : {}) };
}
