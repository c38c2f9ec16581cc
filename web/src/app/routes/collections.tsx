import { CollectionsPage } from '@/features/home/components/collections-page';

export function CollectionsRoute() {
  return <CollectionsPage />;
}
