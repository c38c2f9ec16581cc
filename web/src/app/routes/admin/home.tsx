import { HomepageSettingsPage } from '@/features/admin-curation/components/homepage-settings-page';

export function AdminHomeRoute() {
  return <HomepageSettingsPage />;
}
