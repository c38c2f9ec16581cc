import { ValidationError } from '@shop/shared/errors/errors';
import { MAX_SLIDES, type CarouselSlide, type HomepageEvent } from './events.ts';

export type HomepageState = {
  carousel: CarouselSlide[];
  /** Absent until sections were ever sent; then the JSON value as given (null included). */
  sections?: { value: unknown };
};

export type ConfigureHomepage = {
  type: 'ConfigureHomepage';
  /** A part left out keeps its current value. */
  data: { carousel?: CarouselSlide[]; sections?: { value: unknown }; now: Date };
};
export type HomepageCommand = ConfigureHomepage;

export const PRICE_MESSAGE = 'Price must be a number of at least 0';

export const initialHomepageState = (): HomepageState => ({ carousel: [] });

export function evolveHomepage(_state: HomepageState, event: HomepageEvent): HomepageState {
  switch (event.type) {
    case 'HomepageConfigured': {
      const { carousel, configuredAt: _at } = event.data;
      return 'sections' in event.data ? { carousel, sections: { value: event.data.sections } } : { carousel };
    }
    default: {
      const never: never = event.type;
      throw new Error(`Unknown event ${String(never)}`);
    }
  }
}

/** Rules every saved carousel keeps, whatever the form sent; messages name the field. */
export function assertValidCarousel(carousel: CarouselSlide[]): void {
  if (carousel.length > MAX_SLIDES) throw invalid('carousel', `carousel can have at most ${MAX_SLIDES} slides`);
  carousel.forEach((slide, i) => {
    if (!slide.name.trim()) throw invalid(`carousel[${i}].name`, slideMessage(i, 'Name is required'));
    if (!Number.isSafeInteger(slide.pricePaise) || slide.pricePaise < 0)
      throw invalid(`carousel[${i}].price`, slideMessage(i, PRICE_MESSAGE));
  });
}
/** A slide's refusal in the words of the admin's form ('Slide 2: Price is required'); the error's details keep the field path. */
export const slideMessage = (index: number, message: string) => `Slide ${index + 1}: ${message}`;
const invalid = (path: string, message: string) => new ValidationError(message, [{ path, message }]);

/** JSON with object keys sorted: the event log (jsonb) does not keep key order, so compare without it. */
const canonical = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(canonical)
    : v !== null && typeof v === 'object'
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
        )
      : v;
const same = (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

export function decideHomepage(command: HomepageCommand, state: HomepageState): HomepageEvent[] {
  switch (command.type) {
    case 'ConfigureHomepage': {
      const carousel = command.data.carousel ?? state.carousel;
      const sections = command.data.sections ?? state.sections;
      assertValidCarousel(carousel);
      if (same(carousel, state.carousel) && same(sections, state.sections)) return [];
      return [
        {
          type: 'HomepageConfigured',
          data: {
            carousel,
            ...(sections ? { sections: sections.value } : {}),
            configuredAt: command.data.now.toISOString(),
          },
        },
      ];
    }
    default: {
      const never: never = command.type;
      throw new Error(`Unknown command ${String(never)}`);
    }
  }
}
