import type { ReactNode } from 'react';
import { Icon } from '@/components/ui/icons';
import styles from './delivery-status-badge.module.css';

type Tone = 'delivered' | 'outForDelivery' | 'processing' | 'cancelled' | 'other';

/** The seed's badge colours: delivered green, out for delivery blue, processing yellow, cancelled red, else grey. */
export function deliveryStatusTone(status: string): Tone {
  switch (status.trim().toLowerCase()) {
    case 'delivered':
      return 'delivered';
    case 'out for delivery':
      return 'outForDelivery';
    case 'processing':
      return 'processing';
    case 'cancelled':
    case 'canceled':
      return 'cancelled';
    default:
      return 'other';
  }
}

const svg = (children: ReactNode) => (
  <Icon className={styles.icon} width="14" height="14" strokeWidth="2.25">
    {children}
  </Icon>
);

const icons: Record<Tone, ReactNode> = {
  // A tick in a circle.
  delivered: svg(
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="m8 12 3 3 5-6" />
    </>,
  ),
  // A delivery truck.
  outForDelivery: svg(
    <>
      <path d="M2 6h11v10H2z" />
      <path d="M13 10h4l3 3v3h-7" />
      <circle cx="6" cy="18" r="1.8" />
      <circle cx="17" cy="18" r="1.8" />
    </>,
  ),
  // A clock.
  processing: svg(
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M12 7v5l3 2" />
    </>,
  ),
  // A cross in a circle.
  cancelled: svg(
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="m9 9 6 6M15 9l-6 6" />
    </>,
  ),
  // A parcel.
  other: svg(
    <>
      <path d="M3 7.5 12 3l9 4.5v9L12 21l-9-4.5z" />
      <path d="m3 7.5 9 4.5 9-4.5M12 12v9" />
    </>,
  ),
};

/** An order's delivery status as a coloured badge with an icon; the text is the status itself. */
export function DeliveryStatusBadge({ status }: { status: string }) {
  const tone = deliveryStatusTone(status);
  return (
    <span className={`${styles.badge} ${styles[tone]}`} data-tone={tone}>
      {icons[tone]}
      {status}
    </span>
  );
}
