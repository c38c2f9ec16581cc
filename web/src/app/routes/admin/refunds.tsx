import { RefundsPage } from '@/features/admin-refunds/components/refunds-page';

export function AdminRefundsRoute() {
  return <RefundsPage />;
}
