import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import type { Product } from '@/types/api';
import { useGetHomeSectionContentQuery, useGetHomeSectionsQuery } from '../api/home-api';
import type { HomeSection } from '../home-data';
import { sectionContainerStyle, sectionTitleStyle } from '../section-style';
import { CollectionCard } from './collection-card';
import styles from './home.module.css';

type RenderProducts = (products: readonly Product[]) => ReactNode;

function CustomSection({ section, renderProducts }: { section: HomeSection; renderProducts: RenderProducts }) {
  const { data: content, isLoading } = useGetHomeSectionContentQuery({
    id: section.id,
    contentType: section.contentType,
  });
  const headingId = `home-section-${String(section.id)}-heading`;
  return (
    <section className={styles.customSection} style={sectionContainerStyle(section)} aria-labelledby={headingId}>
      <div className="container">
        <header className={styles.customHeader}>
          <h2 id={headingId} className={styles.customTitle} style={sectionTitleStyle(section)}>
            {section.name}
          </h2>
          {section.contentType === 'collections' ? (
            <Link to={paths.collections.getHref()} className="btn btn-outline btn-sm">
              View All
            </Link>
          ) : null}
        </header>
        {isLoading ? (
          <Spinner label="Loading..." />
        ) : content?.contentType === 'collections' ? (
          content.collections.length === 0 ? (
            <p className="empty-state">No collections</p>
          ) : (
            <ul className={styles.collectionGrid}>
              {content.collections.map((collection) => (
                <li key={collection.id}>
                  <CollectionCard collection={collection} />
                </li>
              ))}
            </ul>
          )
        ) : (
          renderProducts(content?.contentType === 'products' ? content.products : [])
        )}
      </div>
    </section>
  );
}

/**
 * The admin-defined sections of GET /home/sections (active ones, by display order), each in its own text
 * style, colours and size, with its products or collections from /home/sections/{id}/content. Products are
 * drawn by `renderProducts` so the product cards stay in the catalog feature.
 */
export function CustomSections({ renderProducts }: { renderProducts: RenderProducts }) {
  const { data: sections = [] } = useGetHomeSectionsQuery();
  if (sections.length === 0) return null;
  return (
    <div className={styles.customSections}>
      {sections.map((section) => (
        <CustomSection key={section.id} section={section} renderProducts={renderProducts} />
      ))}
    </div>
  );
}
