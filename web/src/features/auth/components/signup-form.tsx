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
import { NewPasswordFields, newPasswordErrors } from './new-password-fields';
import styles from './auth-form.module.css';

type SignupValues = { name: string; email: string; phone: string; password: string; confirmPassword: string };
type SignupErrors = Partial<Record<keyof SignupValues, string>>;

/** Signup rules: every field required, an Indian mobile number, passwords match, password at least 6 characters. */
export function validateSignup(values: SignupValues): SignupErrors {
  const errors: SignupErrors = {};
  if (!values.name.trim()) errors.name = 'Name is required';
  if (!values.email.trim()) errors.email = 'Email is required';
  const phone = phoneProblem(values.phone);
  if (phone) errors.phone = phone;
  return { ...errors, ...newPasswordErrors(values) };
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
      <NewPasswordFields
        passwordLabel="Password"
        password={field('password')}
        confirmPassword={field('confirmPassword')}
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
