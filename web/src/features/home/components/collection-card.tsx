import { Link } from 'react-router-dom';
import { ProductImage } from '@/components/ui/product-image';
import { paths } from '@/config/paths';
import type { Collection } from '../home-data';
import styles from './home.module.css';

/** A collection's image, name and description with Shop Now to its products (/products?collection={id}). */
export function CollectionCard({ collection, hidden = false }: { collection: Collection; hidden?: boolean }) {
  const href = paths.products.getHref({ collection: String(collection.id) });
  return (
    <article className={styles.collectionCard} aria-label={hidden ? undefined : collection.name}>
      <Link to={href} className={styles.collectionMedia} tabIndex={-1} aria-hidden="true">
        <ProductImage
          image={collection.image}
          alt={collection.name}
          className={styles.collectionImage}
          sizes="(max-width: 639px) 100vw, 26rem"
        />
      </Link>
      <div className={styles.collectionBody}>
        <h3 className={styles.collectionName}>{collection.name}</h3>
        {collection.description ? <p className={styles.collectionDescription}>{collection.description}</p> : null}
        <Link to={href} className="btn btn-primary btn-sm" tabIndex={hidden ? -1 : undefined}>
          Shop Now
        </Link>
      </div>
    </article>
  );
}
