import { useState, type FormEvent } from 'react';
import { useAppDispatch } from '@/app/hooks';
import { FormFailure, saveFailure, type SaveFailure } from '@/components/form/form-failure';
import { CheckboxField, TextAreaField, TextField } from '@/components/form/text-field';
import { PageHeader } from '@/components/layout/page-header';
import { notificationShown } from '@/components/notifications/notifications-slice';
import { Spinner } from '@/components/ui/spinner';
import { formatRupees } from '@/lib/money';
import {
  useGetAdminDeliverySettingsQuery,
  useUpdateDeliverySettingsMutation,
  type DeliverySettings,
} from '../api/pricing-api';
import { deliveryFormToSettings, settingsToForm, type AmountField, type DeliveryFormValues } from '../delivery-form';
import styles from './pricing.module.css';

const amountLabels: Record<AmountField, string> = {
  freeShippingThreshold: 'Free Shipping Threshold (₹)',
  shippingCharge: 'Shipping Charge (₹)',
  freeDeliveryThreshold: 'Free Delivery Threshold (₹)',
  deliveryCharge: 'Delivery Charge (₹)',
};

function HowItWorks({ settings }: { settings: DeliverySettings }) {
  return (
    <div className={styles.card}>
      <h2>How it works</h2>
      {settings.isEnabled ? (
        <ul className={styles.summary}>
          <li>
            Shipping: free on orders of {formatRupees(settings.freeShippingThreshold)} or more, otherwise{' '}
            {formatRupees(settings.shippingCharge)}.
          </li>
          <li>
            Delivery: free on orders of {formatRupees(settings.freeDeliveryThreshold)} or more, otherwise{' '}
            {formatRupees(settings.deliveryCharge)}.
          </li>
          <li>The charges at checkout are shipping plus delivery.</li>
        </ul>
      ) : (
        <p className="muted">Delivery charges are disabled: every order ships and delivers free.</p>
      )}
    </div>
  );
}

function SettingsForm({ saved }: { saved: DeliverySettings }) {
  const dispatch = useAppDispatch();
  const [updateSettings, { isLoading: saving }] = useUpdateDeliverySettingsMutation();
  const [values, setValues] = useState<DeliveryFormValues>(() => settingsToForm(saved));
  const [fieldError, setFieldError] = useState<{ field: AmountField; message: string } | null>(null);
  const [failure, setFailure] = useState<SaveFailure | null>(null);
  const set = <K extends keyof DeliveryFormValues>(key: K, value: DeliveryFormValues[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    if (fieldError?.field === key) setFieldError(null);
  };
  const preview = deliveryFormToSettings(values);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFailure(null);
    const checked = deliveryFormToSettings(values);
    if (!checked.ok) {
      setFieldError({ field: checked.field, message: checked.message });
      return;
    }
    try {
      await updateSettings(checked.settings).unwrap();
      dispatch(notificationShown({ type: 'success', message: 'Settings updated successfully' }));
    } catch (error) {
      setFailure(saveFailure('Failed to update settings', error));
      dispatch(notificationShown({ type: 'error', message: 'Failed to update settings' }));
    }
  }

  return (
    <>
      <form className={styles.card} onSubmit={(event) => void onSubmit(event)} noValidate>
        <CheckboxField
          label="Enable delivery charges"
          checked={values.isEnabled}
          onChange={(checked) => set('isEnabled', checked)}
        />
        <div className={styles.grid}>
          {(Object.keys(amountLabels) as AmountField[]).map((field) => (
            <TextField
              key={field}
              label={amountLabels[field]}
              type="number"
              inputMode="decimal"
              min={0}
              step="0.01"
              value={values[field]}
              onChange={(event) => set(field, event.target.value)}
              error={fieldError?.field === field ? fieldError.message : null}
            />
          ))}
          <TextAreaField
            label="Description"
            className={styles.wide}
            rows={3}
            value={values.description}
            onChange={(event) => set('description', event.target.value)}
          />
        </div>
        <FormFailure failure={failure} />
        <div className={styles.actions}>
          <button type="submit" className="btn btn-primary" disabled={saving}>
            {saving ? 'Saving...' : 'Save Settings'}
          </button>
        </div>
      </form>
      <HowItWorks settings={preview.ok ? preview.settings : saved} />
    </>
  );
}

/** /admin/delivery-settings: the enable toggle, thresholds and charges, description and 'How it works'. */
export function DeliverySettingsPage() {
  const settings = useGetAdminDeliverySettingsQuery();
  return (
    <section className="container page narrow">
      <PageHeader title="Delivery & Shipping Settings" />
      {settings.isLoading ? (
        <Spinner />
      ) : settings.data ? (
        // Keyed by the saved values so a save (which refetches) restarts the form from what was stored.
        <SettingsForm key={JSON.stringify(settings.data)} saved={settings.data} />
      ) : (
        <p className="empty-state" role="alert">
          Failed to load settings
        </p>
      )}
    </section>
  );
}
