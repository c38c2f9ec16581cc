import { formatRupees } from '@/lib/money';
import { revenueBars, shortDate, type RevenueDay } from '../revenue-chart';
import styles from './admin-dashboard.module.css';

const WIDTH = 600;
const HEIGHT = 160;
const GAP = 2;

/** Revenue per day as plain SVG bars (no chart library); each bar names its day, revenue and orders. */
export function RevenueChart({ days }: { days: readonly RevenueDay[] }) {
  const bars = revenueBars(days);
  if (bars.length === 0) return <p className="muted">No revenue yet</p>;
  const slot = WIDTH / bars.length;
  const total = bars.reduce((sum, bar) => sum + bar.revenue, 0);
  const first = bars[0]!;
  const last = bars[bars.length - 1]!;
  return (
    <figure className={styles.chart}>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        className={styles.chartSvg}
        role="img"
        aria-label={`Revenue per day from ${shortDate(first.date)} to ${shortDate(last.date)}: ${formatRupees(total)} in all`}
      >
        <line x1={0} y1={HEIGHT - 0.5} x2={WIDTH} y2={HEIGHT - 0.5} className={styles.chartAxis} />
        {bars.map((bar, index) => {
          const height = bar.revenue > 0 ? Math.max(2, bar.share * (HEIGHT - 8)) : 0;
          return (
            <rect
              key={bar.date}
              x={index * slot + GAP / 2}
              y={HEIGHT - height}
              width={Math.max(1, slot - GAP)}
              height={height}
              className={styles.chartBar}
            >
              <title>{`${shortDate(bar.date)}: ${formatRupees(bar.revenue)} (${bar.orders} ${bar.orders === 1 ? 'order' : 'orders'})`}</title>
            </rect>
          );
        })}
      </svg>
      <figcaption className={styles.chartCaption}>
        <span>{shortDate(first.date)}</span>
        <span>Revenue per day, last {bars.length} days</span>
        <span>{shortDate(last.date)}</span>
      </figcaption>
    </figure>
  );
}
