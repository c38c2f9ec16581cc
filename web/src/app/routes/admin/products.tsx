import { AdminProducts } from '@/features/admin/components/admin-products';

export function AdminProductsRoute() {
  return <AdminProducts />;
}
