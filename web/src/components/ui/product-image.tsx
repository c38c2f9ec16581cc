import { useState } from 'react';
import { imageSrcSets, resolveImageUrl } from '@/lib/image-url';
import styles from './product-image.module.css';

type ProductImageProps = {
  image: string | null;
  alt: string;
  className?: string;
  /**
   * How wide the image is laid out (the `sizes` attribute, e.g. '(max-width: 479px) 50vw, 18rem'): with it, an
   * uploaded photo offers its WebP and JPEG renditions by width and the browser downloads the one that fits.
   */
  sizes?: string;
  /** 'eager' for an image shown at once above the fold (the carousel's first slide); lazy otherwise. */
  loading?: 'lazy' | 'eager';
};

/** A product photo, or a clothing emoji when there is no image or it fails to load. */
export function ProductImage({ image, alt, className, sizes, loading = 'lazy' }: ProductImageProps) {
  const src = resolveImageUrl(image);
  const [failedSrc, setFailedSrc] = useState<string | null>(null);

  if (!src || failedSrc === src) {
    return (
      <span className={className} role="img" aria-label={alt} data-fallback="">
        👕
      </span>
    );
  }
  const img = (srcSet?: string) => (
    <img
      className={className}
      src={src}
      srcSet={srcSet}
      sizes={srcSet ? sizes : undefined}
      alt={alt}
      loading={loading}
      onError={() => setFailedSrc(src)}
    />
  );
  const sets = sizes ? imageSrcSets(image) : null;
  if (!sets) return img();
  return (
    <picture className={styles.picture}>
      <source type="image/webp" srcSet={sets.webp} sizes={sizes} />
      {img(sets.jpg)}
    </picture>
  );
}
