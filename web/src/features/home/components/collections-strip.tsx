import { useEffect, useRef, useState } from 'react';
import { useGetCollectionsQuery } from '../api/home-api';
import {
  advanceStrip,
  repeatList,
  STRIP_GAP_PX,
  stripCardWidth,
  stripCopies,
  stripLoopWidth,
  visibleCardsFor,
} from '../timing';
import { CollectionCard } from './collection-card';
import styles from './home.module.css';

function useWindowWidth(): number {
  const [width, setWidth] = useState(() => window.innerWidth);
  useEffect(() => {
    const update = () => setWidth(window.innerWidth);
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
  }, []);
  return width;
}

/** An element's inner width, followed as it changes; 0 until the element is mounted. */
function useElementWidth(element: HTMLElement | null): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    if (!element) return undefined;
    setWidth(element.clientWidth);
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return width;
}

/**
 * The collections of GET /collections in a strip that scrolls by itself at 0.08 px/ms: the list laid out
 * three times with 16 px gaps (more only if one copy is narrower than the strip), wrapping after one copy,
 * 1 / 1.5 / 2 / 2.5 cards in view by window width.
 * It pauses while the pointer or keyboard focus is on it. Nothing shows when there are no collections.
 */
export function CollectionsStrip() {
  const { data: collections = [] } = useGetCollectionsQuery();
  // A callback ref: the strip mounts only once the collections arrive, and its width is read from then on.
  const [viewport, setViewport] = useState<HTMLDivElement | null>(null);
  const trackRef = useRef<HTMLUListElement>(null);
  const offsetRef = useRef(0);
  const pausedRef = useRef(false);
  const windowWidth = useWindowWidth();
  const stripWidth = useElementWidth(viewport);
  const cardWidth = stripCardWidth(stripWidth, visibleCardsFor(windowWidth));
  const loopWidth = stripLoopWidth(collections.length, cardWidth);

  useEffect(() => {
    const track = trackRef.current;
    if (!track || loopWidth <= 0) return undefined;
    let frame = 0;
    let last: number | null = null;
    const step = (now: number) => {
      const elapsed = last === null ? 0 : now - last;
      last = now;
      if (!pausedRef.current) offsetRef.current = advanceStrip(offsetRef.current, elapsed, loopWidth);
      track.style.transform = `translate3d(${-offsetRef.current}px, 0, 0)`;
      frame = window.requestAnimationFrame(step);
    };
    frame = window.requestAnimationFrame(step);
    return () => window.cancelAnimationFrame(frame);
  }, [loopWidth]);

  if (collections.length === 0) return null;

  const pause = () => {
    pausedRef.current = true;
  };
  const resume = () => {
    pausedRef.current = false;
  };

  return (
    <section className={`container ${styles.stripSection}`} aria-labelledby="collections-heading">
      <h2 id="collections-heading" className={styles.sectionTitle}>
        Collections
      </h2>
      <div
        ref={setViewport}
        className={styles.stripViewport}
        data-testid="collections-strip"
        onPointerEnter={pause}
        onPointerLeave={resume}
        onFocus={pause}
        onBlur={resume}
      >
        <ul ref={trackRef} className={styles.stripTrack} style={{ gap: `${STRIP_GAP_PX}px` }}>
          {repeatList(collections, stripCopies(loopWidth, stripWidth)).map(({ item, copy }) => (
            // Only the first copy is announced; the other two are there for the eye.
            <li
              key={`${copy}-${item.id}`}
              className={styles.stripItem}
              style={{ width: `${cardWidth}px` }}
              aria-hidden={copy > 0 ? true : undefined}
            >
              <CollectionCard collection={item} hidden={copy > 0} />
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
