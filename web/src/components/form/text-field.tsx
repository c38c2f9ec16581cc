import { useId, type ComponentProps, type ReactNode } from 'react';
import checkStyles from './checkbox-field.module.css';

type ControlProps = { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string };

type FieldProps = {
  label: string;
  /** A validation message shown under the control and announced with it. */
  error?: string | null;
  /** Added to the field's own `field` class (e.g. a grid placement). */
  className?: string;
};

/** A label, a control and its validation message, wired up for assistive technology. */
function Field({ label, error, className, control }: FieldProps & { control: (props: ControlProps) => ReactNode }) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {control({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? errorId : undefined })}
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A labelled input with its validation message. */
export function TextField({
  label,
  error,
  className,
  ...inputProps
}: FieldProps & Omit<ComponentProps<'input'>, 'id'>) {
  return (
    <Field
      label={label}
      error={error}
      className={className}
      control={(props) => <input {...props} className="input" {...inputProps} />}
    />
  );
}

/** A labelled select (its options are the children) with its validation message. */
export function SelectField({
  label,
  error,
  className,
  ...selectProps
}: FieldProps & Omit<ComponentProps<'select'>, 'id'>) {
  return (
    <Field
      label={label}
      error={error}
      className={className}
      control={(props) => <select {...props} className="input" {...selectProps} />}
    />
  );
}

/** A labelled textarea with its validation message. */
export function TextAreaField({
  label,
  error,
  className,
  ...textareaProps
}: FieldProps & Omit<ComponentProps<'textarea'>, 'id'>) {
  return (
    <Field
      label={label}
      error={error}
      className={className}
      control={(props) => <textarea {...props} className="input" {...textareaProps} />}
    />
  );
}

/** A checkbox with its label beside it; `onChange` gets whether it is now checked. */
export function CheckboxField({
  label,
  onChange,
  ...inputProps
}: { label: string; onChange: (checked: boolean) => void } & Omit<ComponentProps<'input'>, 'type' | 'onChange'>) {
  return (
    <label className={checkStyles.check}>
      <input type="checkbox" {...inputProps} onChange={(event) => onChange(event.target.checked)} />
      {label}
    </label>
  );
}
