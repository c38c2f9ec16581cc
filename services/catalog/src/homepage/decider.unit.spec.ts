import { describe, expect, it } from 'vitest';
import { deciderSpec } from '@shop/test-support/given-when-then';
import { decideHomepage, evolveHomepage, initialHomepageState, type ConfigureHomepage } from './decider.ts';
import type { CarouselSlide, HomepageEvent } from './events.ts';

const now = new Date('2026-11-22T10:00:00Z');
const given = deciderSpec({ decide: decideHomepage, evolve: evolveHomepage, initialState: initialHomepageState });
const slide = (over: Partial<CarouselSlide> = {}): CarouselSlide => ({
  name: 'Festive Kurta',
  pricePaise: 149_900,
  image: '/uploads/kurta.png',
  lining: 'Cotton',
  size: 'M',
  height: '5ft 8in',
  ...over,
});
const configure = (data: Omit<ConfigureHomepage['data'], 'now'>): ConfigureHomepage => ({
  type: 'ConfigureHomepage',
  data: { ...data, now },
});
const configured = (carousel: CarouselSlide[], sections?: { value: unknown }): HomepageEvent => ({
  type: 'HomepageConfigured',
  data: { carousel, ...(sections ? { sections: sections.value } : {}), configuredAt: now.toISOString() },
});

describe('homepage decider', () => {
  it('starts with an empty carousel and no sections', () => {
    expect(given([]).state()).toEqual({ carousel: [] });
  });

  it('records the whole configuration; sections are kept exactly as given', () => {
    const sections = { value: [{ title: 'Diwali edit', ids: [1, 2] }] };
    const events = given([])
      .when(configure({ carousel: [slide()], sections }))
      .events();
    expect(events).toEqual([configured([slide()], sections)]);
    expect(given(events).state()).toEqual({ carousel: [slide()], sections });
  });

  it('keeps the part left out: a carousel-only save keeps the sections, and the other way round', () => {
    const sections = { value: { layout: 'grid' } };
    const history = [configured([slide()], sections)];
    given(history)
      .when(configure({ carousel: [] }))
      .then([configured([], sections)]);
    given(history)
      .when(configure({ sections: { value: null } }))
      .then([configured([slide()], { value: null })]);
  });

  it('records nothing when the save changes nothing', () => {
    const history = [configured([slide()], { value: [] })];
    given(history)
      .when(configure({ carousel: [slide()], sections: { value: [] } }))
      .then([]);
    // the log keeps JSON without its key order: the same values in another order are no change either
    const reordered = {
      height: '5ft 8in',
      size: 'M',
      lining: 'Cotton',
      image: '/uploads/kurta.png',
      pricePaise: 149_900,
      name: 'Festive Kurta',
    };
    const withSections = [configured([slide()], { value: { b: 1, a: [{ y: 2, x: 1 }] } })];
    given(withSections)
      .when(configure({ carousel: [reordered], sections: { value: { a: [{ x: 1, y: 2 }], b: 1 } } }))
      .then([]);
  });

  it('refuses a slide without a name or with a price below 0 or not whole paise, naming the slide', () => {
    given([])
      .when(configure({ carousel: [slide(), slide({ name: '  ' })] }))
      .then('Slide 2: Name is required');
    for (const pricePaise of [-1, 10.5, Number.NaN])
      given([])
        .when(configure({ carousel: [slide({ pricePaise })] }))
        .then('Slide 1: Price must be a number of at least 0');
    given([])
      .when(configure({ carousel: Array.from({ length: 21 }, () => slide()) }))
      .then('carousel can have at most 20 slides');
  });
});
