import { PageTitle } from '@/components/seo/page-title';
import { Spinner } from '@/components/ui/spinner';
import { useGetAdminUsersQuery } from '../api/admin-api';
import styles from './admin-users.module.css';

/** Registered users, read only; the role column shows Admin or User. */
export function AdminUsers() {
  const users = useGetAdminUsersQuery();
  const list = users.data ?? [];

  return (
    <section className="container page">
      <PageTitle title="Users" />
      <h1 className="page-title">Users</h1>
      {users.isLoading ? (
        <Spinner />
      ) : users.isError ? (
        <p className={styles.error} role="alert">
          Failed to load users
        </p>
      ) : list.length === 0 ? (
        <p className="empty-state">No users yet</p>
      ) : (
        <div className={styles.tableWrap} role="region" aria-label="Users" tabIndex={0}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Phone</th>
                <th scope="col">Date of birth</th>
                <th scope="col">Gender</th>
                <th scope="col">Role</th>
              </tr>
            </thead>
            <tbody>
              {list.map((user) => (
                <tr key={String(user.id)}>
                  <td data-label="Name">{user.name}</td>
                  <td data-label="Email">{user.email}</td>
                  <td data-label="Phone">{user.phone ?? '—'}</td>
                  <td data-label="Date of birth">{user.dob ?? '—'}</td>
                  <td data-label="Gender">{user.gender ?? '—'}</td>
                  <td data-label="Role">
                    <span className={user.isAdmin ? styles.admin : styles.user}>{user.isAdmin ? 'Admin' : 'User'}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
