import type { ReactNode } from 'react';
import { PageTitle } from '@/components/seo/page-title';
import styles from './page-header.module.css';

type PageHeaderProps = {
  /** The document title (before the shop's name), and the heading unless `heading` is given. */
  title: string;
  heading?: string;
  /**
   * Shown beside the heading (a button or two). Given at all, even as null while hidden, the heading stands in
   * a header row with it.
   */
  actions?: ReactNode;
};

/** A heading with actions beside it (wrapping under it when narrow). */
export function HeaderRow({ children }: { children: ReactNode }) {
  return <div className={styles.header}>{children}</div>;
}

/** A page's document title and its h1, with the page's actions beside it when it has any. */
export function PageHeader({ title, heading = title, actions }: PageHeaderProps) {
  const h1 = <h1 className="page-title">{heading}</h1>;
  return (
    <>
      <PageTitle title={title} />
      {actions === undefined ? (
        h1
      ) : (
        <HeaderRow>
          {h1}
          {actions}
        </HeaderRow>
      )}
    </>
  );
}
