import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch } from '@/app/hooks';
import { SelectField, TextField } from '@/components/form/text-field';
import { notificationShown } from '@/components/notifications/notifications-slice';
import { WithOrderSummary } from '@/components/orders/order-summary';
import { PageTitle } from '@/components/seo/page-title';
import { ProductImage } from '@/components/ui/product-image';
import { THUMBNAIL_SIZES } from '@/lib/image-url';
import { paths } from '@/config/paths';
import { useGetAddressBookQuery } from '@/lib/addresses-api';
import { useCalculateDeliveryQuery } from '@/lib/delivery-api';
import { formatRupees } from '@/lib/money';
import { readSessionJson, sessionKeys, writeSessionJson } from '@/lib/storage';
import { FREE_DELIVERY, linesSubtotal, orderTotals, subtotalAfterDiscount } from '@/lib/order-totals';
import type { User } from '@/types/api';
import {
  savedAddressLabel,
  shippingDraft,
  withProfile,
  withSavedAddress,
  type CheckoutLine,
  type ShippingDetails,
} from '../checkout-rules';
import { useCheckoutPayment } from '../hooks/use-checkout-payment';
import { sandboxInUse } from '../razorpay';
import { CouponBox, type AppliedCoupon } from './coupon-box';
import styles from './checkout-page.module.css';

type CheckoutPageProps = {
  lines: readonly CheckoutLine[];
  /** The signed-in shopper's profile (from /auth/me), or null for a guest. */
  profile: Pick<User, 'name' | 'email' | 'phone'> | null;
  isLoggedIn: boolean;
  /** Called once the payment is verified: the cart is cleared. */
  onOrderPlaced: () => void;
};

const FIELDS: { key: keyof ShippingDetails; label: string; type?: string; autoComplete: string; wide?: boolean }[] = [
  { key: 'name', label: 'Name', autoComplete: 'name' },
  { key: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
  { key: 'phone', label: 'Phone', type: 'tel', autoComplete: 'tel' },
  { key: 'address', label: 'Address', autoComplete: 'street-address', wide: true },
  { key: 'city', label: 'City', autoComplete: 'address-level2' },
  { key: 'state', label: 'State', autoComplete: 'address-level1' },
  { key: 'pincode', label: 'Pincode', autoComplete: 'postal-code' },
];
const REQUIRED = new Set<keyof ShippingDetails>(['name', 'email', 'phone', 'address', 'pincode']);

/** Checkout (seed 000): shipping form, saved-address picker, coupon box, summary and Pay. */
export function CheckoutPage({ lines, profile, isLoggedIn, onOrderPlaced }: CheckoutPageProps) {
  const dispatch = useAppDispatch();
  const formId = useId();
  const pickerId = useId();
  // What the shopper typed comes back after a reload (during payment too); the tab's draft goes once the order is placed.
  const [shipping, setShipping] = useState<ShippingDetails>(() =>
    shippingDraft(readSessionJson(sessionKeys.checkoutShipping)),
  );
  const [coupon, setCoupon] = useState<AppliedCoupon | null>(null);
  const [pickedAddress, setPickedAddress] = useState('');
  const [sandbox, setSandbox] = useState(false);
  const placed = useCallback(() => {
    writeSessionJson(sessionKeys.checkoutShipping, undefined);
    onOrderPlaced();
  }, [onOrderPlaced]);
  const { pay, status } = useCheckoutPayment(placed);
  const processing = status === 'checking' || status === 'paying' || status === 'verifying';
  useEffect(() => {
    writeSessionJson(sessionKeys.checkoutShipping, status === 'success' ? undefined : shipping);
  }, [shipping, status]);

  // Prefill from the profile once it is known; what the shopper typed is kept.
  useEffect(() => {
    if (profile) setShipping((current) => withProfile(current, profile));
  }, [profile]);

  const addresses = useGetAddressBookQuery(undefined, { skip: !isLoggedIn });
  const savedAddresses = isLoggedIn ? (addresses.data ?? []) : [];
  const reportedAddressError = useRef(false);
  useEffect(() => {
    if (!addresses.isError || reportedAddressError.current) return;
    reportedAddressError.current = true;
    dispatch(notificationShown({ type: 'error', title: 'Failed to load addresses' }));
  }, [addresses.isError, dispatch]);

  // The default address fills an untouched address once the list arrives.
  const appliedDefault = useRef(false);
  useEffect(() => {
    if (appliedDefault.current || !addresses.data) return;
    appliedDefault.current = true;
    const preferred = addresses.data.find((saved) => saved.isDefault) ?? addresses.data[0];
    if (!preferred) return;
    setShipping((current) => (current.address ? current : withSavedAddress(current, preferred)));
    setPickedAddress(String(preferred.id));
  }, [addresses.data]);

  useEffect(() => {
    const abort = new AbortController();
    void sandboxInUse(abort.signal).then((inUse) => !abort.signal.aborted && setSandbox(inUse));
    return () => abort.abort();
  }, []);

  const subtotal = linesSubtotal(lines);
  const discount = coupon ? coupon.discountAmount : 0;
  const delivery = useCalculateDeliveryQuery(subtotalAfterDiscount(subtotal, discount), { skip: lines.length === 0 });
  const quote = delivery.isError ? FREE_DELIVERY : delivery.data;
  const totals = orderTotals(subtotal, discount, quote);

  if (lines.length === 0 && status !== 'success') {
    return (
      <section className="container page empty-state">
        <PageTitle title="Checkout" />
        <h1 className="page-title">Cart is empty</h1>
        <p className="muted">Add something to your cart before checking out.</p>
        <Link to={paths.products.getHref()} className="btn btn-primary">
          Start Shopping
        </Link>
      </section>
    );
  }

  function pickAddress(id: string) {
    setPickedAddress(id);
    const saved = savedAddresses.find((candidate) => String(candidate.id) === id);
    if (saved) setShipping((current) => withSavedAddress(current, saved));
  }

  return (
    <section className="container page">
      <PageTitle title="Checkout" />
      <h1 className="page-title">Checkout</h1>
      <WithOrderSummary
        wide
        summary={
          <>
            <ul className={styles.lines}>
              {lines.map((line) => (
                <li key={`${String(line.id)}|${line.size ?? ''}|${line.color ?? ''}`} className={styles.line}>
                  <ProductImage image={line.image} alt={line.name} className={styles.image} sizes={THUMBNAIL_SIZES} />
                  <div>
                    <p className={styles.lineName}>{line.name}</p>
                    <p className="muted">
                      {[line.size && `Size ${line.size}`, line.color, `${formatRupees(line.price)} x ${line.quantity}`]
                        .filter(Boolean)
                        .join(' · ')}
                    </p>
                  </div>
                  <p className={styles.lineTotal}>{formatRupees(line.price * line.quantity)}</p>
                </li>
              ))}
            </ul>

            <CouponBox orderTotal={totals.subtotal} applied={coupon} onChange={setCoupon} disabled={processing} />

            <dl className={styles.totals}>
              <div className={styles.row}>
                <dt>Subtotal</dt>
                <dd>{formatRupees(totals.subtotal)}</dd>
              </div>
              {coupon ? (
                <div className={`${styles.row} ${styles.discount}`}>
                  <dt>Discount ({coupon.code})</dt>
                  <dd>-{formatRupees(totals.discount)}</dd>
                </div>
              ) : null}
              <div className={styles.row}>
                <dt>Shipping</dt>
                <dd>{quote ? (totals.shippingCharge > 0 ? formatRupees(totals.shippingCharge) : 'Free') : '…'}</dd>
              </div>
              <div className={styles.row}>
                <dt>Delivery</dt>
                <dd>{quote ? (totals.deliveryCharge > 0 ? formatRupees(totals.deliveryCharge) : 'Free') : '…'}</dd>
              </div>
              <div className={`${styles.row} ${styles.total}`}>
                <dt>Total</dt>
                <dd>{quote ? formatRupees(totals.total) : '…'}</dd>
              </div>
            </dl>

            <button type="submit" form={formId} className="btn btn-primary btn-block" disabled={processing || !quote}>
              {processing ? 'Processing...' : `Pay ${quote ? formatRupees(totals.total) : ''}`.trim()}
            </button>
            {sandbox ? (
              <p className={styles.sandbox} role="note">
                Test mode: payments go through the built-in Razorpay sandbox. No money moves.
              </p>
            ) : null}
          </>
        }
      >
        <div className={styles.main}>
          {isLoggedIn ? (
            <section className={styles.card} aria-labelledby={`${pickerId}-heading`}>
              <h2 id={`${pickerId}-heading`}>Saved addresses</h2>
              {addresses.isLoading ? (
                <p className="muted">Loading addresses...</p>
              ) : savedAddresses.length === 0 ? (
                <p className="muted">
                  No saved addresses yet. Add them in <Link to={paths.profile.getHref()}>your profile</Link>.
                </p>
              ) : (
                <SelectField
                  label="Saved address"
                  value={pickedAddress}
                  onChange={(event) => pickAddress(event.target.value)}
                >
                  <option value="">Choose a saved address</option>
                  {savedAddresses.map((saved) => (
                    <option key={String(saved.id)} value={String(saved.id)}>
                      {savedAddressLabel(saved)}
                    </option>
                  ))}
                </SelectField>
              )}
            </section>
          ) : null}

          <section className={styles.card} aria-labelledby={`${formId}-heading`}>
            <h2 id={`${formId}-heading`}>Shipping details</h2>
            <p className="muted">Fields marked * are required.</p>
            <form
              id={formId}
              className={styles.form}
              noValidate
              onSubmit={(event) => {
                event.preventDefault();
                void pay({ lines, shipping, totals, couponCode: coupon?.code ?? null });
              }}
            >
              {FIELDS.map((field) => (
                <TextField
                  key={field.key}
                  className={field.wide ? styles.wide : undefined}
                  label={REQUIRED.has(field.key) ? `${field.label} *` : field.label}
                  name={field.key}
                  type={field.type ?? 'text'}
                  autoComplete={field.autoComplete}
                  aria-required={REQUIRED.has(field.key) || undefined}
                  value={shipping[field.key]}
                  disabled={processing}
                  onChange={(event) => {
                    const { value } = event.target;
                    setShipping((current) => ({ ...current, [field.key]: value }));
                  }}
                />
              ))}
            </form>
          </section>
        </div>
      </WithOrderSummary>
    </section>
  );
}
