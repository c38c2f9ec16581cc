import { useState, type FormEvent } from 'react';
import { TextField } from '@/components/form/text-field';
import { addressPayload, validateAddress, type AddressErrors, type AddressInput } from '../address';
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
  const [values, setValues] = useState<AddressInput>(initial);
  const [errors, setErrors] = useState<AddressErrors>({});
  const set = (field: keyof AddressInput) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validateAddress(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    void onSave(addressPayload(values));
  };

  return (
    <form className={styles.form} aria-label={title} onSubmit={handleSubmit} noValidate>
      <h3 className={styles.formTitle}>{title}</h3>
      <div className={styles.formGrid}>
        <TextField label="Label" required value={values.label} error={errors.label} onChange={set('label')} />
        <TextField
          label="Full name"
          autoComplete="name"
          required
          value={values.name}
          error={errors.name}
          onChange={set('name')}
        />
        <TextField
          label="Phone number"
          type="tel"
          autoComplete="tel"
          required
          value={values.phone}
          error={errors.phone}
          onChange={set('phone')}
        />
        <TextField
          label="Email address"
          type="email"
          autoComplete="email"
          value={values.email}
          onChange={set('email')}
        />
        <TextField
          label="Address line 1"
          autoComplete="address-line1"
          required
          value={values.addressLine1}
          error={errors.addressLine1}
          onChange={set('addressLine1')}
          className={styles.wide}
        />
        <TextField
          label="Address line 2"
          autoComplete="address-line2"
          value={values.addressLine2}
          onChange={set('addressLine2')}
          className={styles.wide}
        />
        <TextField label="City" autoComplete="address-level2" value={values.city} onChange={set('city')} />
        <TextField label="State" autoComplete="address-level1" value={values.state} onChange={set('state')} />
        <TextField
          label="PIN code"
          inputMode="numeric"
          autoComplete="postal-code"
          value={values.zipCode}
          onChange={set('zipCode')}
        />
      </div>
      <label className={styles.checkbox}>
        <input
          type="checkbox"
          checked={isCurrentDefault || values.isDefault}
          disabled={isCurrentDefault}
          onChange={(event) => setValues((current) => ({ ...current, isDefault: event.target.checked }))}
        />
        Set as default address
      </label>
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
