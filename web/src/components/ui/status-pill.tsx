import type { ReactNode } from 'react';
import styles from './status-pill.module.css';

export type PillTone = 'success' | 'muted' | 'danger' | 'warning';

/** A status in a coloured pill (a coupon's, a refund's, a testimonial's, a section's). */
export function StatusPill({ tone, className, children }: { tone: PillTone; className?: string; children: ReactNode }) {
  return <span className={[styles.pill, styles[tone], className].filter(Boolean).join(' ')}>{children}</span>;
}
