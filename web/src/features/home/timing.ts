// The homepage's moving parts as pure functions: the carousel's auto-advance and the collections strip's
// scroll speed, repetition and cards per width (seed 000, section 9).

/** The carousel moves to the next slide every 4 seconds. */
export const CAROUSEL_INTERVAL_MS = 4000;

/** The slide after `current`, back to the first after the last; 0 when there are no slides. */
export function nextSlideIndex(current: number, slideCount: number): number {
  if (slideCount <= 0) return 0;
  return (current + 1) % slideCount;
}

/** A slide index kept inside the list (after the list shrinks, say). */
export function clampSlideIndex(index: number, slideCount: number): number {
  if (slideCount <= 0) return 0;
  return Math.min(Math.max(0, Math.trunc(index)), slideCount - 1);
}

/** The strip scrolls at 0.08 px per millisecond (80 px a second). */
export const STRIP_SPEED_PX_PER_MS = 0.08;
/** The collections are laid out three times over so the scroll can wrap without a visible seam. */
export const STRIP_REPEAT = 3;
/** Space between two cards. */
export const STRIP_GAP_PX = 16;

/** Cards in view by window width: 1 below 640 px, 1.5 below 1024, 2 below 1280, else 2.5. */
export function visibleCardsFor(width: number): number {
  if (width < 640) return 1;
  if (width < 1024) return 1.5;
  if (width < 1280) return 2;
  return 2.5;
}

/**
 * A card's width so that `visible` cards and the gaps between them fill the strip: 2.5 cards show two
 * whole gaps, 1.5 and 2 cards one, a single card none.
 */
export function stripCardWidth(stripWidth: number, visible: number, gap: number = STRIP_GAP_PX): number {
  const gapsInView = Math.ceil(visible - 1);
  return Math.max(0, (stripWidth - gap * gapsInView) / visible);
}

/** The list laid out `times` times over, each item with its copy number for keys. */
export function repeatList<T>(items: readonly T[], times: number = STRIP_REPEAT): Array<{ item: T; copy: number }> {
  return Array.from({ length: times }, (_, copy) => items.map((item) => ({ item, copy }))).flat();
}

/**
 * How many times the list is laid out: three, as the seed says, or more when a short list (a single
 * collection on a wide screen) is narrower than the strip, so the moving strip never shows a blank end.
 */
export function stripCopies(loopWidth: number, stripWidth: number, minimum: number = STRIP_REPEAT): number {
  if (loopWidth <= 0) return minimum;
  return Math.max(minimum, Math.ceil(stripWidth / loopWidth) + 1);
}

/** The width of one copy of the list: the distance after which the strip looks the same again. */
export function stripLoopWidth(itemCount: number, cardWidth: number, gap: number = STRIP_GAP_PX): number {
  return itemCount * (cardWidth + gap);
}

/** The strip's offset after `elapsedMs` more of scrolling, wrapped back by one copy of the list. */
export function advanceStrip(
  offset: number,
  elapsedMs: number,
  loopWidth: number,
  speed: number = STRIP_SPEED_PX_PER_MS,
): number {
  if (loopWidth <= 0) return 0;
  const next = offset + Math.max(0, elapsedMs) * speed;
  return next % loopWidth;
}
