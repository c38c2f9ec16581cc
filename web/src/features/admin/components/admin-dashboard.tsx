import { Link } from 'react-router-dom';
import { PageTitle } from '@/components/seo/page-title';
import { groupIndianDigits } from '@/lib/money';
import { adminScreens } from '../admin-screens';
import { useGetAdminProductsQuery, useGetAdminUsersQuery } from '../api/admin-api';
import styles from './admin-dashboard.module.css';

function StatCard({
  label,
  value,
  isLoading,
  isError,
}: {
  label: string;
  value: number | undefined;
  isLoading: boolean;
  isError: boolean;
}) {
  return (
    <div className={styles.stat}>
      <p className={styles.statLabel}>{label}</p>
      <p className={styles.statValue}>
        {isLoading ? '…' : isError || value === undefined ? '—' : groupIndianDigits(value)}
      </p>
      {isError ? <p className={styles.statError}>Could not load</p> : null}
    </div>
  );
}

/**
 * Admin home: counts this version can actually fetch (products including delisted ones, users) and a
 * tile per admin screen. Order and revenue figures arrive with the orders work, not before.
 */
export function AdminDashboard() {
  const products = useGetAdminProductsQuery();
  const users = useGetAdminUsersQuery();

  return (
    <section className="container page">
      <PageTitle title="Admin Dashboard" />
      <h1 className="page-title">Admin Dashboard</h1>
      <div className={styles.stats}>
        <StatCard
          label="Products"
          value={products.data?.length}
          isLoading={products.isLoading}
          isError={products.isError}
        />
        <StatCard label="Users" value={users.data?.length} isLoading={users.isLoading} isError={users.isError} />
      </div>
      <nav aria-label="Admin screens">
        <ul className={styles.tiles}>
          {adminScreens.map((screen) => (
            <li key={screen.href}>
              <Link to={screen.href} className={styles.tile}>
                <span className={styles.tileTitle}>{screen.title}</span>
                <span className={styles.tileText}>{screen.description}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </section>
  );
}
