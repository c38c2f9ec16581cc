import { AdminDashboard } from '@/features/admin/components/admin-dashboard';

export function AdminDashboardRoute() {
  return <AdminDashboard />;
}
