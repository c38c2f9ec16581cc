import { PageHeader } from '@/components/layout/page-header';
import { DataTable, type Column } from '@/components/ui/data-table';
import { LoadedList } from '@/components/ui/loaded-list';
import type { User } from '@/types/api';
import { useGetAdminUsersQuery } from '../api/admin-api';
import styles from './admin-users.module.css';

const columns: Column<User>[] = [
  { label: 'Name', cell: (user) => user.name },
  { label: 'Email', cell: (user) => user.email },
  { label: 'Phone', cell: (user) => user.phone ?? '—' },
  { label: 'Date of birth', cell: (user) => user.dob ?? '—' },
  { label: 'Gender', cell: (user) => user.gender ?? '—' },
  {
    label: 'Role',
    cell: (user) => (
      <span className={user.isAdmin ? styles.admin : styles.user}>{user.isAdmin ? 'Admin' : 'User'}</span>
    ),
  },
];

/** Registered users, read only; the role column shows Admin or User. */
export function AdminUsers() {
  const users = useGetAdminUsersQuery();

  return (
    <section className="container page">
      <PageHeader title="Users" />
      <LoadedList query={users} error="Failed to load users" errorClassName={styles.error} empty="No users yet">
        {(list) => (
          <DataTable
            columns={columns}
            rows={list}
            rowKey={(user) => String(user.id)}
            regionLabel="Users"
            classes={{ wrap: styles.tableWrap, table: styles.table }}
          />
        )}
      </LoadedList>
    </section>
  );
}
