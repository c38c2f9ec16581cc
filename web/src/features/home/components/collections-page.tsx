import { PageHeader } from '@/components/layout/page-header';
import { Spinner } from '@/components/ui/spinner';
import { useGetCollectionsQuery } from '../api/home-api';
import { CollectionCard } from './collection-card';
import styles from './home.module.css';

/**
 * /collections, where a collections section's View All leads: every collection as a card (image, name,
 * description, Shop Now to /products?collection={id}). A failed load gives the empty list, as public lists do.
 */
export function CollectionsPage() {
  const { data: collections = [], isLoading } = useGetCollectionsQuery();
  return (
    <section className="container page">
      <PageHeader title="Collections" />
      {isLoading ? (
        <Spinner label="Loading..." />
      ) : collections.length === 0 ? (
        <p className="empty-state">No collections</p>
      ) : (
        <ul className={styles.collectionGrid} aria-label="Collections">
          {collections.map((collection) => (
            <li key={collection.id}>
              <CollectionCard collection={collection} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
