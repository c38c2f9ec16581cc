import { HomepageSectionsPage } from '@/features/admin-curation/components/homepage-sections-page';

export function AdminHomepageSectionsRoute() {
  return <HomepageSectionsPage />;
}
