import { CouponsPage } from '@/features/admin-pricing/components/coupons-page';

export function AdminCouponsRoute() {
  return <CouponsPage />;
}
