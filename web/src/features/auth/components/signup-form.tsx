import type { FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch } from '@/app/hooks';
import { TextField } from '@/components/form/text-field';
import { useFormFields } from '@/components/form/use-form-fields';
import { failureShown, notificationShown } from '@/components/notifications/notifications-slice';
import type { User } from '@/types/api';
import { phoneProblem } from '@/types/fields';
import { useRegisterMutation } from '../api/auth-api';
import { sessionStarted } from '../session-slice';
import styles from './auth-form.module.css';

export const MIN_PASSWORD_LENGTH = 6;

type SignupValues = { name: string; email: string; phone: string; password: string; confirmPassword: string };
type SignupErrors = Partial<Record<keyof SignupValues, string>>;

/** Signup rules: every field required, an Indian mobile number, passwords match, password at least 6 characters. */
export function validateSignup(values: SignupValues): SignupErrors {
  const errors: SignupErrors = {};
  if (!values.name.trim()) errors.name = 'Name is required';
  if (!values.email.trim()) errors.email = 'Email is required';
  const phone = phoneProblem(values.phone);
  if (phone) errors.phone = phone;
  if (!values.password) errors.password = 'Password is required';
  else if (values.password.length < MIN_PASSWORD_LENGTH)
    errors.password = `Password must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (!values.confirmPassword) errors.confirmPassword = 'Please confirm your password';
  else if (values.password !== values.confirmPassword) errors.confirmPassword = 'Passwords do not match';
  return errors;
}

type SignupFormProps = {
  /** Called with the new user once the session is stored. */
  onSuccess: (user: User) => void;
  loginHref: string;
};

export function SignupForm({ onSuccess, loginHref }: SignupFormProps) {
  const dispatch = useAppDispatch();
  const [register, { isLoading }] = useRegisterMutation();
  const { values, field, check } = useFormFields<SignupValues>(
    { name: '', email: '', phone: '', password: '', confirmPassword: '' },
    validateSignup,
  );

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!check()) return;
    try {
      const { user, token } = await register({
        name: values.name.trim(),
        email: values.email.trim(),
        phone: values.phone.trim(),
        password: values.password,
      }).unwrap();
      dispatch(sessionStarted({ user, token }));
      dispatch(notificationShown({ type: 'success', message: 'Welcome! Account created successfully' }));
      onSuccess(user);
    } catch (error) {
      dispatch(failureShown('Registration failed', error));
    }
  };

  return (
    <form className={styles.form} onSubmit={(event) => void handleSubmit(event)} noValidate>
      <h1 className={styles.title}>Create account</h1>
      <p className={styles.subtitle}>Sign up to track orders and save your addresses.</p>
      <TextField label="Name" autoComplete="name" required {...field('name')} />
      <TextField label="Email" type="email" autoComplete="email" required {...field('email')} />
      <TextField label="Phone" type="tel" autoComplete="tel" placeholder="+91" required {...field('phone')} />
      <TextField
        label="Password"
        type="password"
        autoComplete="new-password"
        required
        minLength={MIN_PASSWORD_LENGTH}
        {...field('password')}
      />
      <TextField
        label="Confirm password"
        type="password"
        autoComplete="new-password"
        required
        {...field('confirmPassword')}
      />
      <button type="submit" className="btn btn-primary btn-block" disabled={isLoading}>
        {isLoading ? 'Creating account...' : 'Sign up'}
      </button>
      <p className={styles.switch}>
        Already have an account? <Link to={loginHref}>Login</Link>
      </p>
    </form>
  );
}
