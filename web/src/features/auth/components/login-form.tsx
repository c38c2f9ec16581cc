import type { FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch } from '@/app/hooks';
import { TextField } from '@/components/form/text-field';
import { useFormFields } from '@/components/form/use-form-fields';
import { failureShown, notificationShown } from '@/components/notifications/notifications-slice';
import type { User } from '@/types/api';
import { useLoginMutation } from '../api/auth-api';
import { sessionStarted } from '../session-slice';
import styles from './auth-form.module.css';

type LoginFormProps = {
  /** Called with the logged-in user once the session is stored. */
  onSuccess: (user: User) => void;
  signupHref: string;
  forgotPasswordHref: string;
};

type LoginErrors = Partial<Record<'email' | 'password', string>>;

export function validateLogin(values: { email: string; password: string }): LoginErrors {
  const errors: LoginErrors = {};
  if (!values.email.trim()) errors.email = 'Email is required';
  if (!values.password) errors.password = 'Password is required';
  return errors;
}

export function LoginForm({ onSuccess, signupHref, forgotPasswordHref }: LoginFormProps) {
  const dispatch = useAppDispatch();
  const [login, { isLoading }] = useLoginMutation();
  const { values, field, check } = useFormFields({ email: '', password: '' }, validateLogin);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!check()) return;
    try {
      const { user, token } = await login({ email: values.email.trim(), password: values.password }).unwrap();
      dispatch(sessionStarted({ user, token }));
      dispatch(notificationShown({ type: 'success', title: 'Welcome back', message: user.name }));
      onSuccess(user);
    } catch (error) {
      dispatch(failureShown('Login failed', error));
    }
  };

  return (
    <form className={styles.form} onSubmit={(event) => void handleSubmit(event)} noValidate>
      <h1 className={styles.title}>Login</h1>
      <p className={styles.subtitle}>Welcome back! Log in to continue shopping.</p>
      <TextField label="Email" type="email" autoComplete="email" required {...field('email')} />
      <TextField label="Password" type="password" autoComplete="current-password" required {...field('password')} />
      <p className={styles.forgot}>
        <Link to={forgotPasswordHref}>Forgot password?</Link>
      </p>
      <button type="submit" className="btn btn-primary btn-block" disabled={isLoading}>
        {isLoading ? 'Logging in...' : 'Login'}
      </button>
      <p className={styles.switch}>
        New here? <Link to={signupHref}>Create an account</Link>
      </p>
    </form>
  );
}
