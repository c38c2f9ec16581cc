import type { FormEvent } from 'react';
import { CheckboxField, TextField } from '@/components/form/text-field';
import { useFormFields } from '@/components/form/use-form-fields';
import { addressPayload, validateAddress, type AddressInput } from '../address';
import styles from './address-book.module.css';

type AddressFormProps = {
  title: string;
  initial: AddressInput;
  /** The address is already the default: it stays so (another one must be made default instead). */
  isCurrentDefault: boolean;
  saving: boolean;
  onSave: (values: AddressInput) => Promise<void> | void;
  onCancel: () => void;
};

/** Add or edit one saved address; label, name, phone and address line 1 are required. */
export function AddressForm({ title, initial, isCurrentDefault, saving, onSave, onCancel }: AddressFormProps) {
  const { values, setValues, field, check } = useFormFields(initial, validateAddress);

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!check()) return;
    void onSave(addressPayload(values));
  };

  return (
    <form className={styles.form} aria-label={title} onSubmit={handleSubmit} noValidate>
      <h3 className={styles.formTitle}>{title}</h3>
      <div className={styles.formGrid}>
        <TextField label="Label" required {...field('label')} />
        <TextField label="Full name" autoComplete="name" required {...field('name')} />
        <TextField label="Phone number" type="tel" autoComplete="tel" required {...field('phone')} />
        <TextField label="Email address" type="email" autoComplete="email" {...field('email')} />
        <TextField
          label="Address line 1"
          autoComplete="address-line1"
          required
          className={styles.wide}
          {...field('addressLine1')}
        />
        <TextField
          label="Address line 2"
          autoComplete="address-line2"
          className={styles.wide}
          {...field('addressLine2')}
        />
        <TextField label="City" autoComplete="address-level2" {...field('city')} />
        <TextField label="State" autoComplete="address-level1" {...field('state')} />
        <TextField label="PIN code" inputMode="numeric" autoComplete="postal-code" {...field('zipCode')} />
      </div>
      <CheckboxField
        label="Set as default address"
        checked={isCurrentDefault || values.isDefault}
        disabled={isCurrentDefault}
        onChange={(checked) => setValues((current) => ({ ...current, isDefault: checked }))}
      />
      <div className="button-row">
        <button type="submit" className="btn btn-primary" disabled={saving}>
          {saving ? 'Saving...' : 'Save Address'}
        </button>
        <button type="button" className="btn btn-outline" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
