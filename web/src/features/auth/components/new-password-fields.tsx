import type { ComponentProps } from 'react';
import { TextField } from '@/components/form/text-field';

/** The seeds' minimum password length (signup, and a password set through a reset link). */
export const MIN_PASSWORD_LENGTH = 6;

export type NewPasswordValues = { password: string; confirmPassword: string };

/** The rules of a new password: required, at least 6 characters, and the confirmation matches. */
export function newPasswordErrors(values: NewPasswordValues): Partial<Record<keyof NewPasswordValues, string>> {
  const errors: Partial<Record<keyof NewPasswordValues, string>> = {};
  if (!values.password) errors.password = 'Password is required';
  else if (values.password.length < MIN_PASSWORD_LENGTH)
    errors.password = `Password must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (!values.confirmPassword) errors.confirmPassword = 'Please confirm your password';
  else if (values.password !== values.confirmPassword) errors.confirmPassword = 'Passwords do not match';
  return errors;
}

type Field = Omit<ComponentProps<typeof TextField>, 'label'>;

/** A new password and its confirmation (the form's `field('password')` and `field('confirmPassword')`). */
export function NewPasswordFields({
  passwordLabel,
  password,
  confirmPassword,
}: {
  passwordLabel: string;
  password: Field;
  confirmPassword: Field;
}) {
  return (
    <>
      <TextField
        label={passwordLabel}
        type="password"
        autoComplete="new-password"
        required
        minLength={MIN_PASSWORD_LENGTH}
        {...password}
      />
      <TextField label="Confirm password" type="password" autoComplete="new-password" required {...confirmPassword} />
    </>
  );
}
