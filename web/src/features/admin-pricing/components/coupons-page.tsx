import { useState, type FormEvent } from 'react';
import { useAppDispatch } from '@/app/hooks';
import { FormFailure, saveFailure, type SaveFailure } from '@/components/form/form-failure';
import { CheckboxField, SelectField, TextAreaField, TextField } from '@/components/form/text-field';
import { PageHeader } from '@/components/layout/page-header';
import { notificationShown } from '@/components/notifications/notifications-slice';
import { useConfirmation } from '@/components/ui/confirm-dialog';
import { DataTable, type Column } from '@/components/ui/data-table';
import { LoadedList } from '@/components/ui/loaded-list';
import { StatusPill, type PillTone } from '@/components/ui/status-pill';
import { errorMessage } from '@/lib/api-client';
import { formatRupees } from '@/lib/money';
import { INDIA_UTC_OFFSET } from '@shop/shared/time/india-date';
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

const statusTone: Record<CouponStatus, PillTone> = {
  Active: 'success',
  Inactive: 'muted',
  Expired: 'danger',
  'Limit Reached': 'warning',
};

function formatDay(bound: string | null): string | null {
  if (!bound) return null;
  const at = /^\d{4}-\d{2}-\d{2}$/.test(bound) ? new Date(`${bound}T12:00:00${INDIA_UTC_OFFSET}`) : new Date(bound);
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
  const [deleteCoupon] = useDeleteCouponMutation();
  const [formOpen, setFormOpen] = useState(false);
  const [editing, setEditing] = useState<Coupon | null>(null);
  const [values, setValues] = useState<CouponFormValues>(emptyCouponForm);
  const [fieldError, setFieldError] = useState<{ field: keyof CouponFormValues; message: string } | null>(null);
  const [failure, setFailure] = useState<SaveFailure | null>(null);
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
    setFailure(null);
    setFormOpen(true);
  }

  function openEdit(coupon: Coupon) {
    setEditing(coupon);
    setValues(couponToForm(coupon));
    setFieldError(null);
    setFailure(null);
    setFormOpen(true);
  }

  function closeForm() {
    setFormOpen(false);
    setEditing(null);
    setValues(emptyCouponForm);
    setFieldError(null);
    setFailure(null);
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFailure(null);
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
      setFailure(saveFailure('Failed to save coupon', error));
      dispatch(
        notificationShown({ type: 'error', title: 'Error', message: errorMessage(error, 'Failed to save coupon') }),
      );
    }
  }

  const deletion = useConfirmation(
    async (coupon: Coupon) => {
      try {
        await deleteCoupon(coupon.id).unwrap();
        dispatch(notificationShown({ type: 'success', message: 'Coupon deleted successfully' }));
        if (editing?.id === coupon.id) closeForm();
      } catch {
        dispatch(notificationShown({ type: 'error', message: 'Failed to delete coupon' }));
      }
    },
    () => ({ message: 'Are you sure you want to delete this coupon?' }),
  );

  const now = new Date();
  const columns: Column<Coupon>[] = [
    { label: 'Code', cell: (coupon) => <span className={styles.code}>{coupon.code}</span> },
    { label: 'Discount', cell: discountText },
    { label: 'Min Order', cell: (coupon) => formatRupees(coupon.minOrderAmount) },
    { label: 'Usage', cell: (coupon) => couponUsage(coupon.usedCount, coupon.usageLimit) },
    { label: 'Valid Period', cell: validPeriod },
    {
      label: 'Status',
      cell: (coupon) => {
        const status = couponStatus(coupon, now);
        return <StatusPill tone={statusTone[status]}>{status}</StatusPill>;
      },
    },
    {
      label: 'Actions',
      cell: (coupon) => (
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
            onClick={() => deletion.ask(coupon)}
            aria-label={`Delete ${coupon.code}`}
          >
            Delete
          </button>
        </span>
      ),
    },
  ];

  return (
    <section className="container page">
      <PageHeader
        title="Coupon Management"
        actions={
          formOpen ? null : (
            <button type="button" className="btn btn-primary" onClick={openCreate}>
              + Create Coupon
            </button>
          )
        }
      />

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
            <SelectField
              label="Discount Type"
              value={values.discountType}
              onChange={(event) => set('discountType', event.target.value === 'fixed' ? 'fixed' : 'percentage')}
              required
            >
              <option value="percentage">Percentage (%)</option>
              <option value="fixed">Fixed Amount (₹)</option>
            </SelectField>
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
            <TextAreaField
              label="Description"
              className={styles.wide}
              rows={2}
              value={values.description}
              onChange={(event) => set('description', event.target.value)}
            />
            <CheckboxField label="Active" checked={values.isActive} onChange={(checked) => set('isActive', checked)} />
          </div>
          <FormFailure failure={failure} />
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

      <LoadedList query={coupons} error="Failed to load coupons" empty="No coupons found. Create your first coupon!">
        {(list) => <DataTable columns={columns} rows={list} rowKey={(coupon) => coupon.id} oneLine />}
      </LoadedList>

      {deletion.dialog}
    </section>
  );
}
