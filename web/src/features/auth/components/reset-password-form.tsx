import type { FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch } from '@/app/hooks';
import { useFormFields } from '@/components/form/use-form-fields';
import { failureShown, notificationShown } from '@/components/notifications/notifications-slice';
import { useResetPasswordMutation } from '../api/auth-api';
import { NewPasswordFields, newPasswordErrors, type NewPasswordValues } from './new-password-fields';
import styles from './auth-form.module.css';

/** The signup's password rules: at least 6 characters, and the two entries match. */
export const validateResetPassword = newPasswordErrors;

type ResetPasswordFormProps = {
  /** The reset link's token (from the page's fragment); empty when the link carried none. */
  token: string;
  forgotHref: string;
  /** Called once the password is reset (every session of the account has ended). */
  onSuccess: () => void;
};

/** Sets a new password with the e-mailed link's token; the link works once. */
export function ResetPasswordForm({ token, forgotHref, onSuccess }: ResetPasswordFormProps) {
  const dispatch = useAppDispatch();
  const [resetPassword, { isLoading }] = useResetPasswordMutation();
  const { values, field, check } = useFormFields<NewPasswordValues>(
    { password: '', confirmPassword: '' },
    validateResetPassword,
  );

  if (!token)
    return (
      <div className={styles.form} role="alert">
        <h1 className={styles.title}>Reset password</h1>
        <p className={styles.subtitle}>This link has no reset token. Please ask for a new one.</p>
        <p className={styles.switch}>
          <Link to={forgotHref}>Send a new reset link</Link>
        </p>
      </div>
    );

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!check()) return;
    try {
      const { message } = await resetPassword({ token, password: values.password }).unwrap();
      dispatch(notificationShown({ type: 'success', title: 'Password reset', message }));
      onSuccess();
    } catch (error) {
      dispatch(failureShown('Password reset failed', error));
    }
  };

  return (
    <form className={styles.form} onSubmit={(event) => void handleSubmit(event)} noValidate>
      <h1 className={styles.title}>Reset password</h1>
      <p className={styles.subtitle}>
        Choose a new password. Every device signed in to your account will be signed out.
      </p>
      <NewPasswordFields
        passwordLabel="New password"
        password={field('password')}
        confirmPassword={field('confirmPassword')}
      />
      <button type="submit" className="btn btn-primary btn-block" disabled={isLoading}>
        {isLoading ? 'Resetting...' : 'Reset password'}
      </button>
      <p className={styles.switch}>
        Link expired? <Link to={forgotHref}>Send a new reset link</Link>
      </p>
    </form>
  );
}
