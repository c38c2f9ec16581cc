import { statusTone } from '../orders';
import styles from './status-badge.module.css';

/** A delivery status in the seed's colours: delivered green, out for delivery blue, processing yellow, cancelled red, other grey. */
export function StatusBadge({ status }: { status: string }) {
  const tone = statusTone(status);
  return (
    <span className={`${styles.badge} ${styles[tone]}`} data-tone={tone}>
      {status}
    </span>
  );
}
