import { useEffect } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { CloseIcon } from '@/components/ui/icons';
import { notificationDismissed, selectNotifications, type Notification } from './notifications-slice';
import styles from './notifications.module.css';

function NotificationToast({ notification }: { notification: Notification }) {
  const dispatch = useDispatch();
  const { id, type, title, message, durationMs } = notification;

  useEffect(() => {
    if (durationMs <= 0) return undefined;
    const timer = window.setTimeout(() => dispatch(notificationDismissed(id)), durationMs);
    return () => window.clearTimeout(timer);
  }, [dispatch, id, durationMs]);

  return (
    <li className={`${styles.toast} ${styles[type]}`} role={type === 'error' ? 'alert' : 'status'}>
      <div className={styles.text}>
        <p className={styles.title}>{title}</p>
        {message ? <p className={styles.message}>{message}</p> : null}
      </div>
      <button
        type="button"
        className={styles.close}
        aria-label="Close notification"
        onClick={() => dispatch(notificationDismissed(id))}
      >
        <CloseIcon />
      </button>
    </li>
  );
}

/** Renders the notifications in the store; mount once, in the root layout. */
export function Notifications() {
  // Typed through the slice selector, so this shared component needs nothing from app/.
  const notifications = useSelector(selectNotifications);
  return (
    <ul className={styles.host} aria-label="Notifications">
      {notifications.map((notification) => (
        <NotificationToast key={notification.id} notification={notification} />
      ))}
    </ul>
  );
}
