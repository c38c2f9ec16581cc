import { DeliverySettingsPage } from '@/features/admin-pricing/components/delivery-settings-page';

export function AdminDeliverySettingsRoute() {
  return <DeliverySettingsPage />;
}
