import { describe, expect, it } from 'vitest';
import {
  advanceStrip,
  CAROUSEL_INTERVAL_MS,
  clampSlideIndex,
  nextSlideIndex,
  repeatList,
  STRIP_GAP_PX,
  STRIP_REPEAT,
  STRIP_SPEED_PX_PER_MS,
  stripCardWidth,
  stripCopies,
  stripLoopWidth,
  visibleCardsFor,
} from './timing';

describe('carousel timing', () => {
  it('advances every 4000 ms and wraps from the last slide to the first', () => {
    expect(CAROUSEL_INTERVAL_MS).toBe(4000);
    expect(nextSlideIndex(0, 3)).toBe(1);
    expect(nextSlideIndex(2, 3)).toBe(0);
    expect(nextSlideIndex(0, 1)).toBe(0);
    expect(nextSlideIndex(5, 0)).toBe(0);
  });

  it('keeps a chosen slide inside the list', () => {
    expect(clampSlideIndex(4, 3)).toBe(2);
    expect(clampSlideIndex(-1, 3)).toBe(0);
    expect(clampSlideIndex(1, 0)).toBe(0);
  });
});

describe('collections strip', () => {
  it('shows 1 card below 640 px, 1.5 below 1024, 2 below 1280, else 2.5', () => {
    expect(visibleCardsFor(375)).toBe(1);
    expect(visibleCardsFor(639)).toBe(1);
    expect(visibleCardsFor(640)).toBe(1.5);
    expect(visibleCardsFor(1023)).toBe(1.5);
    expect(visibleCardsFor(1024)).toBe(2);
    expect(visibleCardsFor(1279)).toBe(2);
    expect(visibleCardsFor(1280)).toBe(2.5);
    expect(visibleCardsFor(1440)).toBe(2.5);
  });

  it('sizes cards so the visible ones and the 16 px gaps between them fill the strip', () => {
    expect(STRIP_GAP_PX).toBe(16);
    expect(stripCardWidth(343, 1)).toBe(343);
    expect(stripCardWidth(816, 1.5)).toBe(533.3333333333334);
    expect(stripCardWidth(1016, 2)).toBe(500);
    // 2.5 cards: two whole gaps in view.
    expect(stripCardWidth(1282, 2.5)).toBe(500);
    expect(2.5 * stripCardWidth(1282, 2.5) + 2 * STRIP_GAP_PX).toBe(1282);
    expect(stripCardWidth(10, 2.5)).toBe(0);
  });

  it('repeats the list three times', () => {
    expect(STRIP_REPEAT).toBe(3);
    expect(repeatList(['a', 'b'])).toEqual([
      { item: 'a', copy: 0 },
      { item: 'b', copy: 0 },
      { item: 'a', copy: 1 },
      { item: 'b', copy: 1 },
      { item: 'a', copy: 2 },
      { item: 'b', copy: 2 },
    ]);
    expect(repeatList([])).toEqual([]);
  });

  it('scrolls 0.08 px per ms and wraps after one copy of the list', () => {
    expect(STRIP_SPEED_PX_PER_MS).toBe(0.08);
    expect(advanceStrip(0, 1000, 10_000)).toBe(80);
    expect(advanceStrip(100, 250, 10_000)).toBe(120);
    const loop = stripLoopWidth(2, 484, STRIP_GAP_PX);
    expect(loop).toBe(1000);
    expect(advanceStrip(990, 250, loop)).toBe(10);
    expect(advanceStrip(50, -20, loop)).toBe(50);
    expect(advanceStrip(50, 100, 0)).toBe(0);
  });

  it('lays the list out three times, more only when one copy is narrower than the strip', () => {
    // Four collections of 473.6 px cards at 1440 px: one copy (1958 px) is wider than the 1216 px strip.
    expect(stripCopies(stripLoopWidth(4, 473.6), 1216)).toBe(3);
    // One collection: a copy is 489.6 px, so four copies keep the strip filled while it moves by one copy.
    expect(stripCopies(stripLoopWidth(1, 473.6), 1216)).toBe(4);
    expect(stripCopies(0, 1216)).toBe(3);
  });
});
