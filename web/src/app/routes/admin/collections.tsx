import { CollectionsPage } from '@/features/admin-curation/components/collections-page';

export function AdminCollectionsRoute() {
  return <CollectionsPage />;
}
