import { Link } from 'react-router-dom';
import { PageHeader } from '@/components/layout/page-header';
import { groupIndianDigits } from '@/lib/money';
import { adminScreens } from '../admin-screens';
import { useGetAdminStatsQuery, type DashboardStats } from '../api/stats-api';
import { formatRevenue } from '../revenue-chart';
import { RevenueChart } from './revenue-chart';
import styles from './admin-dashboard.module.css';

function StatCard({ label, value }: { label: string; value: string }) {
  return (
    <div className={styles.stat} role="group" aria-label={label}>
      <dt className={styles.statLabel}>{label}</dt>
      <dd className={styles.statValue}>{value}</dd>
    </div>
  );
}

function statTiles(stats: DashboardStats): Array<{ label: string; value: string }> {
  const count = (value: number) => groupIndianDigits(value);
  return [
    { label: 'Total Revenue', value: formatRevenue(stats.totalRevenue) },
    { label: 'Total Orders', value: count(stats.totalOrders) },
    { label: 'Unseen Orders', value: count(stats.unseenOrders) },
    { label: 'Processing', value: count(stats.ordersByStatus['Processing'] ?? 0) },
    { label: 'Out for Delivery', value: count(stats.ordersByStatus['Out for Delivery'] ?? 0) },
    { label: 'Delivered', value: count(stats.ordersByStatus['Delivered'] ?? 0) },
    { label: 'Products', value: count(stats.totalProducts) },
    { label: 'Low Stock', value: count(stats.lowStockProducts) },
    { label: 'Out of Stock', value: count(stats.outOfStockProducts) },
    { label: 'Users', value: count(stats.totalUsers) },
    { label: 'Pending Testimonials', value: count(stats.pendingTestimonials) },
  ];
}

/** Admin home: the figures (live from the push stream), revenue per day, and a tile per admin screen. */
export function AdminDashboard() {
  const stats = useGetAdminStatsQuery();

  return (
    <section className="container page">
      <PageHeader title="Admin Dashboard" />
      {stats.isLoading ? (
        <p className="muted" aria-live="polite">
          Loading figures...
        </p>
      ) : stats.isError || !stats.data ? (
        <p className={styles.statError} role="alert">
          Could not load the figures
        </p>
      ) : (
        <>
          <dl className={styles.stats} aria-label="Store figures">
            {statTiles(stats.data).map((tile) => (
              <StatCard key={tile.label} label={tile.label} value={tile.value} />
            ))}
          </dl>
          <section className={styles.panel} aria-label="Revenue per day">
            <h2 className={styles.panelTitle}>Revenue per day</h2>
            <RevenueChart days={stats.data.revenueByDay} />
          </section>
        </>
      )}
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
