import { useEffect, useId, useRef, useState } from 'react';
import { skipToken } from '@reduxjs/toolkit/query/react';
import { Link, useLocation } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { PageTitle } from '@/components/seo/page-title';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { errorMessage, type ApiError } from '@/lib/api-client';
import { followOrderConfirmation } from '@/lib/order-stream';
import { ordersApi, useGetMyOrdersQuery, useGetOrderConfirmationQuery } from '../api/orders-api';
import { useMyOrdersStream } from '../hooks/use-my-orders-stream';
import { parseOrderConfirmation } from '../order-schema';
import { OrderCard } from './order-card';
import styles from './order-confirmation-page.module.css';

/**
 * How often the page reads the order again while it is being placed (verify answers before the order is
 * placed) and its push stream failed; while the stream is up, the page reads at STATUS_POLL_MS, in case an
 * announcement was lost.
 */
export const PLACING_POLL_MS = 2_000;
/** How often a guest's page reads the order for status changes (a signed-in shopper's is pushed). */
export const STATUS_POLL_MS = 10_000;

const notFound = (error: unknown) => typeof error === 'object' && error !== null && (error as ApiError).status === 404;

/** The link's token, from the fragment of /order-confirmation#<token> ('' when there is none). */
function tokenOf(hash: string): string {
  try {
    return decodeURIComponent(hash.replace(/^#/, ''));
  } catch {
    return '';
  }
}

/** The link to keep, with a copy button (the clipboard, else the text selected for the shopper to copy). */
function SaveLink({ token }: { token: string }) {
  const url = `${window.location.origin}${paths.orderConfirmation.getHref(token)}`;
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<'no' | 'yes' | 'select'>('no');
  const labelId = useId();

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied('yes');
    } catch {
      // No clipboard (an insecure page, a refusal): select the link so the shopper can copy it.
      field.current?.select();
      setCopied('select');
    }
  };

  return (
    <section className={styles.saveLink} aria-labelledby={labelId}>
      <h2 id={labelId} className={styles.saveTitle}>
        Save this link to see your order later
      </h2>
      <p className={styles.note}>Anyone with this link can see this order, so keep it to yourself.</p>
      <div className={styles.linkRow}>
        <input
          ref={field}
          className={`input ${styles.linkField}`}
          aria-label="Order link"
          value={url}
          readOnly
          onFocus={(event) => event.currentTarget.select()}
        />
        <button type="button" className="btn btn-primary" onClick={() => void copy()}>
          Copy link
        </button>
      </div>
      <p className={`${styles.note} ${styles.copyStatus}`} aria-live="polite">
        {copied === 'yes' ? 'Link copied' : copied === 'select' ? 'Press Ctrl+C (or Cmd+C) to copy the link' : ''}
      </p>
    </section>
  );
}

/** A signed-in shopper's orders list kept live from the push stream, as on My Orders; says whether it is live. */
function OwnOrdersStream() {
  const stream = useMyOrdersStream();
  return (
    <p className={styles.live} data-state={stream}>
      {stream === 'live' ? 'Live updates on' : stream === 'connecting' ? 'Connecting...' : 'Reconnecting...'}
    </p>
  );
}

/**
 * While the order is being placed, follows it by push (its own stream, opened by the link's token, for
 * guests and signed-in buyers alike): the order is put in the confirmation read's cache as soon as it is
 * placed. Says whether the stream failed, so that the page reads the order again every PLACING_POLL_MS.
 */
function useConfirmationPush(token: string, placing: boolean): 'following' | 'failed' {
  const dispatch = useAppDispatch();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!token || !placing) return undefined;
    setFailed(false);
    return followOrderConfirmation(token, {
      onOrder: (data) => {
        try {
          void dispatch(ordersApi.util.upsertQueryData('getOrderConfirmation', token, parseOrderConfirmation(data)));
        } catch {
          setFailed(true);
        }
      },
      onFailed: () => setFailed(true),
    });
  }, [dispatch, token, placing]);
  return failed ? 'failed' : 'following';
}

/**
 * /order-confirmation#<token>: where every buyer lands after paying, and where the link brings them back later,
 * signed in or not. While the order is being placed, it follows by push (useConfirmationPush). Then status
 * changes show live: a signed-in shopper's own order from the push stream My Orders uses;
 * anyone else's by reading the order again every few seconds while the page is in front (a one-row read, no
 * long-lived connection per guest, and nothing lost across sleeps and network changes).
 */
export function OrderConfirmationPage() {
  const { hash } = useLocation();
  const token = tokenOf(hash);
  const user = useAppSelector((state) => state.session.user);
  const shopper = Boolean(user && !user.isAdmin);
  // The answer so far (read without subscribing): how often to read again depends on it.
  const { data: cached } = ordersApi.endpoints.getOrderConfirmation.useQueryState(token || skipToken);
  const placedNumber = cached?.state === 'placed' ? cached.order.orderNumber : null;
  const placing = cached?.state === 'placing';
  const push = useConfirmationPush(token, placing);
  // A signed-in shopper's own order, from their orders list (the same read model), pushed live.
  const { ownOrder } = useGetMyOrdersQuery(undefined, {
    skip: !shopper || !placedNumber,
    selectFromResult: ({ data }) => ({ ownOrder: data?.find((o) => o.orderNumber === placedNumber) ?? null }),
  });
  const { data, error, isLoading, refetch } = useGetOrderConfirmationQuery(token, {
    skip: !token,
    pollingInterval: placing ? (push === 'failed' ? PLACING_POLL_MS : STATUS_POLL_MS) : ownOrder ? 0 : STATUS_POLL_MS,
    skipPollingIfUnfocused: true,
  });
  const order = ownOrder ?? (data?.state === 'placed' ? data.order : null);

  if (!token || notFound(error))
    return (
      <section className="container page empty-state">
        <PageTitle title="Order not found" />
        <h1 className="page-title">Order not found</h1>
        <p>We could not find an order for this link. Check that you copied the whole link.</p>
        <Link className="btn btn-primary" to={paths.products.getHref()}>
          Continue Shopping
        </Link>
      </section>
    );

  return (
    <section className={`container page ${styles.page}`}>
      <PageTitle title={order ? `Order ${order.orderNumber}` : 'Order confirmation'} />
      {order ? (
        <header className={styles.hero}>
          <h1 className={`page-title ${styles.title}`}>Thank you for your order!</h1>
          <p className={styles.lead}>
            Your payment is received and order <strong>{order.orderNumber}</strong> is placed.
          </p>
          <dl className={styles.facts}>
            <div>
              <dt>Order number</dt>
              <dd>{order.orderNumber}</dd>
            </div>
            {order.razorpayPaymentId ? (
              <div>
                <dt>Payment reference</dt>
                <dd>{order.razorpayPaymentId}</dd>
              </div>
            ) : null}
          </dl>
        </header>
      ) : (
        <h1 className="page-title">Order confirmation</h1>
      )}

      {order ? (
        <>
          {ownOrder ? <OwnOrdersStream /> : <p className={styles.live}>Status updates while this page is open</p>}
          <OrderCard order={order} />
        </>
      ) : isLoading ? (
        <Spinner label="Loading your order..." />
      ) : error ? (
        <div className="empty-state">
          <p>{errorMessage(error, 'Failed to load your order')}</p>
          <button type="button" className="btn btn-outline" onClick={() => void refetch()}>
            Try again
          </button>
        </div>
      ) : data?.state === 'placing' ? (
        <div className={`${styles.placing} surface`} role="status">
          <span className="spinner" aria-hidden="true" />
          <p>{data.message}</p>
          <p className={styles.note}>This page shows your order as soon as it is ready.</p>
        </div>
      ) : null}

      {data ? <SaveLink token={token} /> : null}

      <div className={styles.actions}>
        {shopper ? (
          <Link className="btn btn-primary" to={paths.myOrders.getHref()}>
            My Orders
          </Link>
        ) : null}
        <Link className="btn btn-outline" to={paths.products.getHref()}>
          Continue Shopping
        </Link>
      </div>
    </section>
  );
}
