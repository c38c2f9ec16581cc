import { AdminOrders } from '@/features/admin/components/admin-orders';

export function AdminOrdersRoute() {
  return <AdminOrders />;
}
