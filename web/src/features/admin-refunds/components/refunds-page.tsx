import { PageTitle } from '@/components/seo/page-title';
import { Spinner } from '@/components/ui/spinner';
import { formatRupees } from '@/lib/money';
import { useGetAdminRefundsQuery } from '../api/refunds-api';
import { formatIndiaTime, refundReason, refundStatus } from '../refund-labels';
import styles from './refunds.module.css';

/** /admin/refunds: money taken that could not become an order, and whether it has gone back to the buyer. */
export function RefundsPage() {
  const refunds = useGetAdminRefundsQuery(undefined, { refetchOnMountOrArgChange: true });
  const list = refunds.data ?? [];

  return (
    <section className="container page">
      <PageTitle title="Refunds" />
      <div className={styles.header}>
        <h1 className="page-title">Refunds</h1>
        <button type="button" className="btn btn-outline" onClick={() => void refunds.refetch()}>
          Refresh
        </button>
      </div>
      {refunds.isLoading ? (
        <Spinner />
      ) : refunds.isError ? (
        <p className={styles.inlineError}>Could not load the refunds</p>
      ) : list.length === 0 ? (
        <p>No refunds. Payments that cannot become an order are listed here.</p>
      ) : (
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th>Order / Payment</th>
                <th>Customer</th>
                <th>Amount</th>
                <th>Reason</th>
                <th>Status</th>
                <th>Time</th>
              </tr>
            </thead>
            <tbody>
              {list.map((refund) => (
                <tr key={refund.razorpayPaymentId}>
                  <td data-label="Order / Payment">
                    <span className={styles.code}>{refund.razorpayOrderId}</span>
                    <br />
                    <span className={styles.code}>{refund.razorpayPaymentId}</span>
                  </td>
                  <td data-label="Customer">{refund.customerEmail ?? '—'}</td>
                  <td data-label="Amount">{formatRupees(refund.amount)}</td>
                  <td data-label="Reason">
                    {refundReason(refund.reason)}
                    {refund.detail ? <div className={styles.detail}>{refund.detail}</div> : null}
                  </td>
                  <td data-label="Status">
                    <span className={refund.status === 'refunded' ? styles.statusDone : styles.statusDue}>
                      {refundStatus(refund)}
                    </span>
                    {refund.refundId ? <div className={styles.code}>{refund.refundId}</div> : null}
                    {refund.lastError ? <div className={styles.detail}>{refund.lastError}</div> : null}
                  </td>
                  <td data-label="Time">
                    <div>Due {formatIndiaTime(refund.dueAt)}</div>
                    {refund.refundedAt ? <div>Refunded {formatIndiaTime(refund.refundedAt)}</div> : null}
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
