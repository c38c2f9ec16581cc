import { useEffect, useState } from 'react';
import { ProductImage } from '@/components/ui/product-image';
import { formatRupees } from '@/lib/money';
import { useGetHomepageQuery } from '../api/home-api';
import { CAROUSEL_INTERVAL_MS, clampSlideIndex, nextSlideIndex } from '../timing';
import styles from './home.module.css';

/**
 * The full-screen carousel of GET /home: one slide at a time (name, price, lining, size, height over its
 * image), the next one every 4 seconds, and a bar per slide to jump to it. Nothing shows until an admin
 * has saved a slide, or when the homepage cannot be loaded.
 */
export function HomeCarousel() {
  const { data } = useGetHomepageQuery();
  const slides = data?.carousel ?? [];
  const [chosen, setChosen] = useState(0);
  const active = clampSlideIndex(chosen, slides.length);

  // A new timer for every slide shown, so a click on a bar gives that slide its full 4 seconds.
  useEffect(() => {
    if (slides.length < 2) return undefined;
    const timer = window.setTimeout(() => setChosen(nextSlideIndex(active, slides.length)), CAROUSEL_INTERVAL_MS);
    return () => window.clearTimeout(timer);
  }, [active, slides.length]);

  if (slides.length === 0) return null;

  return (
    <section className={styles.carousel} aria-roledescription="carousel" aria-label="Featured styles">
      {slides.map((slide, index) => {
        const isActive = index === active;
        return (
          <div
            key={index}
            className={isActive ? `${styles.slide} ${styles.slideActive}` : styles.slide}
            role="group"
            aria-roledescription="slide"
            aria-label={`${index + 1} of ${slides.length}`}
            aria-hidden={!isActive}
          >
            {slide.image ? (
              // full-screen: the renditions by the viewport's width; every slide loaded up front, as it shows in turn
              <ProductImage image={slide.image} alt="" className={styles.slideImage} sizes="100vw" loading="eager" />
            ) : null}
            <div className={styles.slideText}>
              <h2 className={styles.slideName}>{slide.name}</h2>
              <p className={styles.slidePrice}>{formatRupees(slide.price)}</p>
              <dl className={styles.slideFacts}>
                {slide.lining ? (
                  <div>
                    <dt>Lining</dt>
                    <dd>{slide.lining}</dd>
                  </div>
                ) : null}
                {slide.size ? (
                  <div>
                    <dt>Size</dt>
                    <dd>{slide.size}</dd>
                  </div>
                ) : null}
                {slide.height ? (
                  <div>
                    <dt>Height</dt>
                    <dd>{slide.height}</dd>
                  </div>
                ) : null}
              </dl>
            </div>
          </div>
        );
      })}
      {slides.length > 1 ? (
        <div className={styles.slideBars}>
          {slides.map((slide, index) => (
            <button
              key={index}
              type="button"
              className={index === active ? `${styles.slideBar} ${styles.slideBarActive}` : styles.slideBar}
              aria-label={`Show slide ${index + 1}: ${slide.name}`}
              aria-current={index === active ? 'true' : undefined}
              onClick={() => setChosen(index)}
            />
          ))}
        </div>
      ) : null}
    </section>
  );
}
