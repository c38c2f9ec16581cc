import { PageHeader } from '@/components/layout/page-header';
import { DataTable, type Column } from '@/components/ui/data-table';
import { LoadedList } from '@/components/ui/loaded-list';
import { StatusPill } from '@/components/ui/status-pill';
import { formatRupees } from '@/lib/money';
import { useGetAdminRefundsQuery, type Refund } from '../api/refunds-api';
import { formatIndiaTime, refundReason, refundStatus } from '../refund-labels';
import styles from './refunds.module.css';

const columns: Column<Refund>[] = [
  {
    label: 'Order / Payment',
    cell: (refund) => (
      <>
        <span className={styles.code}>{refund.razorpayOrderId}</span>
        <br />
        <span className={styles.code}>{refund.razorpayPaymentId}</span>
      </>
    ),
  },
  { label: 'Customer', cell: (refund) => refund.customerEmail ?? '—' },
  { label: 'Amount', cell: (refund) => formatRupees(refund.amount) },
  {
    label: 'Reason',
    cell: (refund) => (
      <>
        {refundReason(refund.reason)}
        {refund.detail ? <div className={styles.detail}>{refund.detail}</div> : null}
      </>
    ),
  },
  {
    label: 'Status',
    cell: (refund) => (
      <>
        <StatusPill tone={refund.status === 'refunded' ? 'success' : 'warning'}>{refundStatus(refund)}</StatusPill>
        {refund.refundId ? <div className={styles.code}>{refund.refundId}</div> : null}
        {refund.lastError ? <div className={styles.detail}>{refund.lastError}</div> : null}
      </>
    ),
  },
  {
    label: 'Time',
    cell: (refund) => (
      <>
        <div>Due {formatIndiaTime(refund.dueAt)}</div>
        {refund.refundedAt ? <div>Refunded {formatIndiaTime(refund.refundedAt)}</div> : null}
      </>
    ),
  },
];

/** /admin/refunds: money taken that could not become an order, and whether it has gone back to the buyer. */
export function RefundsPage() {
  const refunds = useGetAdminRefundsQuery(undefined, { refetchOnMountOrArgChange: true });

  return (
    <section className="container page">
      <PageHeader
        title="Refunds"
        actions={
          <button type="button" className="btn btn-outline" onClick={() => void refunds.refetch()}>
            Refresh
          </button>
        }
      />
      <LoadedList
        query={refunds}
        error="Could not load the refunds"
        errorClassName={styles.inlineError}
        empty="No refunds. Payments that cannot become an order are listed here."
        emptyClassName=""
      >
        {(list) => <DataTable columns={columns} rows={list} rowKey={(refund) => refund.razorpayPaymentId} />}
      </LoadedList>
    </section>
  );
}
