/** Events of the `homepage` stream: the storefront's home page configuration (its carousel and more). */

/** One carousel slide; the price in paise, the image an uploaded path (/uploads/...), a URL or ''. */
export interface CarouselSlide {
  name: string;
  pricePaise: number;
  image: string;
  lining: string;
  size: string;
  height: string;
}

/**
 * The admin saved the home page: the whole configuration as it now stands. `sections` is whatever JSON the
 * admin's form sent under that name, kept as given; the key is absent until one was ever sent.
 */
export type HomepageConfigured = {
  type: 'HomepageConfigured';
  data: { carousel: CarouselSlide[]; sections?: unknown; configuredAt: string };
};
export type HomepageEvent = HomepageConfigured;

export const HOMEPAGE_STREAM = 'homepage';
export const MAX_SLIDES = 20;
