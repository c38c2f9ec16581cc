import type { ReactNode } from 'react';
import { PageTitle } from '@/components/seo/page-title';

type PendingScreenProps = { title: string; children?: ReactNode };

/** An honest stand-in for a screen that is routed but not built yet: it shows no made-up data. */
export function PendingScreen({ title, children }: PendingScreenProps) {
  return (
    <section className="container page">
      <PageTitle title={title} />
      <h1 className="page-title">{title}</h1>
      <div className="empty-state">{children ?? <p>This page is not available yet.</p>}</div>
    </section>
  );
}
