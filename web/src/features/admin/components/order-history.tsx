import { Spinner } from '@/components/ui/spinner';
import { useGetOrderHistoryQuery } from '../api/orders-api';
import { eventName, eventSummary, formatIndiaTime } from '../order-history';
import styles from './admin-orders.module.css';

/**
 * An order's event timeline (payment, stock reservation, order) in log order: one row per event with its
 * India time, a readable name, who did it and a short reading of its data. Mounted only while it is open.
 */
export function OrderHistory({ id, orderNumber }: { id: string; orderNumber: string }) {
  const history = useGetOrderHistoryQuery(orderNumber);
  const events = history.data ?? [];

  return (
    <section id={id} className={styles.history} aria-label={`History of ${orderNumber}`}>
      <h3 className={styles.historyTitle}>History</h3>
      {history.isLoading ? (
        <Spinner label="Loading history..." />
      ) : history.isError ? (
        <div className={styles.historyError} role="alert">
          <p className={styles.error}>Could not load the history</p>
          <button type="button" className="btn btn-outline btn-sm" onClick={() => void history.refetch()}>
            Try again
          </button>
        </div>
      ) : events.length === 0 ? (
        <p className={styles.muted}>No events yet</p>
      ) : (
        <ol className={styles.timeline} aria-label="Events" aria-busy={history.isFetching}>
          {events.map((event) => {
            const summary = eventSummary(event);
            return (
              <li key={`${event.source}#${event.position}#${event.eventId}`} className={styles.event}>
                <time className={styles.muted} dateTime={event.time || undefined} title={event.indiaTime || undefined}>
                  {formatIndiaTime(event)}
                </time>
                <span className={styles.eventName} title={event.type}>
                  {eventName(event.type)}
                </span>
                <span className={styles.eventActor}>by {event.actor ?? '—'}</span>
                {summary ? <span className={styles.eventSummary}>{summary}</span> : null}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
