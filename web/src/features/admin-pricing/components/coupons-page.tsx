import { useState, type FormEvent } from 'react';
import { useAppDispatch } from '@/app/hooks';
import { TextField } from '@/components/form/text-field';
import { notificationShown } from '@/components/notifications/notifications-slice';
import { PageTitle } from '@/components/seo/page-title';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { formatRupees } from '@/lib/money';
import {
  useCreateCouponMutation,
  useDeleteCouponMutation,
  useGetAdminCouponsQuery,
  useUpdateCouponMutation,
  type Coupon,
} from '../api/pricing-api';
import { couponFormToInput, couponToForm, emptyCouponForm, type CouponFormValues } from '../coupon-form';
import { couponStatus, couponUsage, type CouponStatus } from '../coupon-status';
import styles from './pricing.module.css';

const statusClass: Record<CouponStatus, string | undefined> = {
  Active: styles.statusActive,
  Inactive: styles.statusInactive,
  Expired: styles.statusExpired,
  'Limit Reached': styles.statusLimit,
};

function formatDay(bound: string | null): string | null {
  if (!bound) return null;
  const at = /^\d{4}-\d{2}-\d{2}$/.test(bound) ? new Date(`${bound}T12:00:00+05:30`) : new Date(bound);
  if (Number.isNaN(at.getTime())) return bound;
  return at.toLocaleDateString('en-IN', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Asia/Kolkata' });
}

function validPeriod(coupon: Coupon): string {
  const from = formatDay(coupon.validFrom);
  const until = formatDay(coupon.validUntil);
  if (!from && !until) return 'Always';
  if (!until) return `From ${from}`;
  if (!from) return `Until ${until}`;
  return `${from} – ${until}`;
}

function discountText(coupon: Coupon): string {
  if (coupon.discountType === 'fixed') return `${formatRupees(coupon.discountValue)} off`;
  const max = coupon.maxDiscount === null ? '' : ` (max ${formatRupees(coupon.maxDiscount)})`;
  return `${coupon.discountValue}% off${max}`;
}

/** /admin/coupons: the coupon table with its statuses, and the create / edit form. */
export function CouponsPage() {
  const dispatch = useAppDispatch();
  const coupons = useGetAdminCouponsQuery();
  const [createCoupon, creating] = useCreateCouponMutation();
  const [updateCoupon, updating] = useUpdateCouponMutation();
  const [deleteCoupon, deleting] = useDeleteCouponMutation();
  const [formOpen, setFormOpen] = useState(false);
  const [editing, setEditing] = useState<Coupon | null>(null);
  const [values, setValues] = useState<CouponFormValues>(emptyCouponForm);
  const [fieldError, setFieldError] = useState<{ field: keyof CouponFormValues; message: string } | null>(null);
  const [toDelete, setToDelete] = useState<Coupon | null>(null);
  const saving = creating.isLoading || updating.isLoading;

  const set = <K extends keyof CouponFormValues>(key: K, value: CouponFormValues[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    if (fieldError?.field === key) setFieldError(null);
  };
  const errorFor = (key: keyof CouponFormValues) => (fieldError?.field === key ? fieldError.message : null);

  function openCreate() {
    setEditing(null);
    setValues(emptyCouponForm);
    setFieldError(null);
    setFormOpen(true);
  }

  function openEdit(coupon: Coupon) {
    setEditing(coupon);
    setValues(couponToForm(coupon));
    setFieldError(null);
    setFormOpen(true);
  }

  function closeForm() {
    setFormOpen(false);
    setEditing(null);
    setValues(emptyCouponForm);
    setFieldError(null);
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = couponFormToInput(values);
    if (!checked.ok) {
      setFieldError({ field: checked.field, message: checked.message });
      return;
    }
    try {
      if (editing) {
        await updateCoupon({ id: editing.id, input: checked.input }).unwrap();
        dispatch(notificationShown({ type: 'success', message: 'Coupon updated successfully' }));
      } else {
        await createCoupon(checked.input).unwrap();
        dispatch(notificationShown({ type: 'success', message: 'Coupon created successfully' }));
      }
      closeForm();
    } catch (error) {
      dispatch(
        notificationShown({ type: 'error', title: 'Error', message: errorMessage(error, 'Failed to save coupon') }),
      );
    }
  }

  async function confirmDelete() {
    if (!toDelete) return;
    try {
      await deleteCoupon(toDelete.id).unwrap();
      dispatch(notificationShown({ type: 'success', message: 'Coupon deleted successfully' }));
      if (editing?.id === toDelete.id) closeForm();
    } catch {
      dispatch(notificationShown({ type: 'error', message: 'Failed to delete coupon' }));
    }
    setToDelete(null);
  }

  const list = coupons.data ?? [];
  const now = new Date();

  return (
    <section className="container page">
      <PageTitle title="Coupon Management" />
      <div className={styles.header}>
        <h1 className="page-title">Coupon Management</h1>
        {formOpen ? null : (
          <button type="button" className="btn btn-primary" onClick={openCreate}>
            + Create Coupon
          </button>
        )}
      </div>

      {formOpen ? (
        <form className={styles.card} onSubmit={(event) => void onSubmit(event)} noValidate>
          <h2>{editing ? 'Edit Coupon' : 'Create Coupon'}</h2>
          <div className={styles.grid}>
            <TextField
              label="Coupon Code"
              value={values.code}
              onChange={(event) => set('code', event.target.value.toUpperCase())}
              required
              error={errorFor('code')}
              autoComplete="off"
            />
            <div className="field">
              <label className="field-label" htmlFor="coupon-discount-type">
                Discount Type
              </label>
              <select
                id="coupon-discount-type"
                className="input"
                value={values.discountType}
                onChange={(event) => set('discountType', event.target.value === 'fixed' ? 'fixed' : 'percentage')}
                required
              >
                <option value="percentage">Percentage (%)</option>
                <option value="fixed">Fixed Amount (₹)</option>
              </select>
            </div>
            <TextField
              label={values.discountType === 'percentage' ? 'Discount Value (%)' : 'Discount Value (₹)'}
              type="number"
              inputMode="decimal"
              min={0}
              max={values.discountType === 'percentage' ? 100 : undefined}
              step="0.01"
              value={values.discountValue}
              onChange={(event) => set('discountValue', event.target.value)}
              required
              error={errorFor('discountValue')}
            />
            <TextField
              label="Minimum Order Amount (₹)"
              type="number"
              inputMode="decimal"
              min={0}
              step="0.01"
              value={values.minOrderAmount}
              onChange={(event) => set('minOrderAmount', event.target.value)}
              error={errorFor('minOrderAmount')}
            />
            {values.discountType === 'percentage' ? (
              <TextField
                label="Max Discount (₹)"
                type="number"
                inputMode="decimal"
                min={0}
                step="0.01"
                placeholder="No cap"
                value={values.maxDiscount}
                onChange={(event) => set('maxDiscount', event.target.value)}
                error={errorFor('maxDiscount')}
              />
            ) : null}
            <TextField
              label="Usage Limit"
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              placeholder="Unlimited"
              value={values.usageLimit}
              onChange={(event) => set('usageLimit', event.target.value)}
              error={errorFor('usageLimit')}
            />
            <TextField
              label="Valid From"
              type="date"
              value={values.validFrom}
              onChange={(event) => set('validFrom', event.target.value)}
            />
            <TextField
              label="Valid Until"
              type="date"
              value={values.validUntil}
              onChange={(event) => set('validUntil', event.target.value)}
            />
            <div className={`field ${styles.wide}`}>
              <label className="field-label" htmlFor="coupon-description">
                Description
              </label>
              <textarea
                id="coupon-description"
                className="input"
                rows={2}
                value={values.description}
                onChange={(event) => set('description', event.target.value)}
              />
            </div>
            <label className={styles.check}>
              <input
                type="checkbox"
                checked={values.isActive}
                onChange={(event) => set('isActive', event.target.checked)}
              />
              Active
            </label>
          </div>
          <div className={styles.actions}>
            <button type="submit" className="btn btn-primary" disabled={saving}>
              {saving ? 'Saving...' : editing ? 'Update Coupon' : 'Create Coupon'}
            </button>
            <button type="button" className="btn btn-outline" onClick={closeForm} disabled={saving}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}

      {coupons.isLoading ? (
        <Spinner />
      ) : coupons.isError ? (
        <p className="empty-state" role="alert">
          Failed to load coupons
        </p>
      ) : list.length === 0 ? (
        <p className="empty-state">No coupons found. Create your first coupon!</p>
      ) : (
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">Code</th>
                <th scope="col">Discount</th>
                <th scope="col">Min Order</th>
                <th scope="col">Usage</th>
                <th scope="col">Valid Period</th>
                <th scope="col">Status</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.map((coupon) => {
                const status = couponStatus(coupon, now);
                return (
                  <tr key={coupon.id}>
                    <td data-label="Code">
                      <span className={styles.code}>{coupon.code}</span>
                    </td>
                    <td data-label="Discount">{discountText(coupon)}</td>
                    <td data-label="Min Order">{formatRupees(coupon.minOrderAmount)}</td>
                    <td data-label="Usage">{couponUsage(coupon.usedCount, coupon.usageLimit)}</td>
                    <td data-label="Valid Period">{validPeriod(coupon)}</td>
                    <td data-label="Status">
                      <span className={`${styles.status} ${statusClass[status] ?? ''}`}>{status}</span>
                    </td>
                    <td data-label="Actions">
                      <span className={styles.actions}>
                        <button
                          type="button"
                          className="btn btn-outline btn-sm"
                          onClick={() => openEdit(coupon)}
                          aria-label={`Edit ${coupon.code}`}
                        >
                          Edit
                        </button>
                        <button
                          type="button"
                          className="btn btn-outline btn-sm"
                          onClick={() => setToDelete(coupon)}
                          aria-label={`Delete ${coupon.code}`}
                        >
                          Delete
                        </button>
                      </span>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}

      {toDelete ? (
        <ConfirmDialog
          message="Are you sure you want to delete this coupon?"
          busy={deleting.isLoading}
          onConfirm={() => void confirmDelete()}
          onCancel={() => setToDelete(null)}
        />
      ) : null}
    </section>
  );
}
