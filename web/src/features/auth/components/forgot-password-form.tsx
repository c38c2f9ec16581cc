import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch } from '@/app/hooks';
import { TextField } from '@/components/form/text-field';
import { useFormFields } from '@/components/form/use-form-fields';
import { failureShown } from '@/components/notifications/notifications-slice';
import { useForgotPasswordMutation } from '../api/auth-api';
import styles from './auth-form.module.css';

type ForgotErrors = Partial<Record<'email', string>>;

export function validateForgotPassword(values: { email: string }): ForgotErrors {
  return values.email.trim() ? {} : { email: 'Email is required' };
}

/**
 * "Forgot password?": asks for the account's e-mail and sends it a reset link. The server answers the same
 * whether or not the e-mail has an account, and so does this page: it shows that answer in place of the form.
 */
export function ForgotPasswordForm({ loginHref }: { loginHref: string }) {
  const dispatch = useAppDispatch();
  const [forgotPassword, { isLoading }] = useForgotPasswordMutation();
  const { values, field, check } = useFormFields({ email: '' }, validateForgotPassword);
  const [sent, setSent] = useState<string | null>(null);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!check()) return;
    try {
      const { message } = await forgotPassword({ email: values.email.trim() }).unwrap();
      setSent(message);
    } catch (error) {
      dispatch(failureShown('Could not send the reset link', error));
    }
  };

  if (sent)
    return (
      <div className={styles.form} role="status">
        <h1 className={styles.title}>Check your e-mail</h1>
        <p className={styles.subtitle}>{sent}</p>
        <p className={styles.switch}>
          <Link to={loginHref}>Back to login</Link>
        </p>
      </div>
    );

  return (
    <form className={styles.form} onSubmit={(event) => void handleSubmit(event)} noValidate>
      <h1 className={styles.title}>Forgot password?</h1>
      <p className={styles.subtitle}>Enter your account&apos;s e-mail and we will send you a link to reset it.</p>
      <TextField label="Email" type="email" autoComplete="email" required {...field('email')} />
      <button type="submit" className="btn btn-primary btn-block" disabled={isLoading}>
        {isLoading ? 'Sending...' : 'Send reset link'}
      </button>
      <p className={styles.switch}>
        Remembered it? <Link to={loginHref}>Back to login</Link>
      </p>
    </form>
  );
}
