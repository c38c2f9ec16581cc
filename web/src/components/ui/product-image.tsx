import { useState } from 'react';
import { resolveImageUrl } from '@/lib/image-url';

type ProductImageProps = {
  image: string | null;
  alt: string;
  className?: string;
};

/** A product photo, or a clothing emoji when there is no image or it fails to load. */
export function ProductImage({ image, alt, className }: ProductImageProps) {
  const src = resolveImageUrl(image);
  const [failedSrc, setFailedSrc] = useState<string | null>(null);

  if (!src || failedSrc === src) {
    return (
      <span className={className} role="img" aria-label={alt} data-fallback="">
        👕
      </span>
    );
  }
  return <img className={className} src={src} alt={alt} loading="lazy" onError={() => setFailedSrc(src)} />;
}
