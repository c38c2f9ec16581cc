import type { ReactNode } from 'react';
import styles from './order-summary.module.css';

type WithOrderSummaryProps = {
  /** What the summary lists under its 'Order summary' heading (lines, totals, the next step). */
  summary: ReactNode;
  /** A wider summary column (checkout's, which lists the lines too). */
  wide?: boolean;
  children: ReactNode;
};

/** A page's content (the cart, the checkout forms) with its order summary beside it, sticky while it scrolls. */
export function WithOrderSummary({ summary, wide = false, children }: WithOrderSummaryProps) {
  return (
    <div className={wide ? `${styles.layout} ${styles.wide}` : styles.layout}>
      {children}
      <aside className={styles.summary} aria-label="Order summary">
        <h2>Order summary</h2>
        {summary}
      </aside>
    </div>
  );
}
