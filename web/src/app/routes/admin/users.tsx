import { AdminUsers } from '@/features/admin/components/admin-users';

export function AdminUsersRoute() {
  return <AdminUsers />;
}
