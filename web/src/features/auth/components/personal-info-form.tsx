import { useState, type FormEvent } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { TextField } from '@/components/form/text-field';
import { notificationShown } from '@/components/notifications/notifications-slice';
import { errorMessage } from '@/lib/api-client';
import type { Gender, User } from '@/types/api';
import { useGetCurrentUserQuery, useUpdateCurrentUserMutation } from '../api/auth-api';
import {
  ageOn,
  birthdayGreeting,
  calendarDateOf,
  formatCalendarDate,
  isInFuture,
  parseCalendarDate,
} from '../birthday';
import { selectCurrentUser } from '../session-slice';
import styles from './personal-info-form.module.css';

const GENDERS: Gender[] = ['Male', 'Female', 'Other'];

type Values = { name: string; email: string; phone: string; dob: string; gender: Gender | '' };
type Errors = Partial<Record<'name' | 'email' | 'dob', string>>;

function valuesOf(user: User): Values {
  const dob = parseCalendarDate(user.dob);
  return {
    name: user.name,
    email: user.email,
    phone: user.phone ?? '',
    dob: dob ? formatCalendarDate(dob) : '',
    gender: user.gender ?? '',
  };
}

/** Seed: name and e-mail are required; a birth date cannot be in the future. */
export function validateProfile(values: Values, today = calendarDateOf(new Date())): Errors {
  const errors: Errors = {};
  if (!values.name.trim()) errors.name = 'Name is required';
  if (!values.email.trim()) errors.email = 'Email is required';
  const dob = parseCalendarDate(values.dob);
  if (values.dob && !dob) errors.dob = 'Please enter a valid date';
  else if (dob && isInFuture(dob, today)) errors.dob = 'Birth date cannot be in the future';
  return errors;
}

function ProfileForm({ user }: { user: User }) {
  const dispatch = useAppDispatch();
  const [update, { isLoading }] = useUpdateCurrentUserMutation();
  const [values, setValues] = useState<Values>(() => valuesOf(user));
  const [errors, setErrors] = useState<Errors>({});
  const today = calendarDateOf(new Date());
  const savedDob = parseCalendarDate(user.dob);
  const age = ageOn(savedDob, today);
  const greeting = birthdayGreeting(user.name, savedDob, today);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validateProfile(values, today);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      // The answer's user and fresh token are stored by the mutation (session slice, then browser storage).
      const { user: saved } = await update({
        name: values.name.trim(),
        email: values.email.trim(),
        phone: values.phone.trim(),
        dob: values.dob || null,
        gender: values.gender || null,
      }).unwrap();
      setValues(valuesOf(saved));
      dispatch(notificationShown({ type: 'success', title: 'Profile updated' }));
    } catch (error) {
      dispatch(
        notificationShown({ type: 'error', title: 'Update failed', message: errorMessage(error, 'Update failed') }),
      );
    }
  };

  return (
    <form
      className={styles.card}
      aria-labelledby="personal-info-title"
      onSubmit={(event) => void handleSubmit(event)}
      noValidate
    >
      <h2 id="personal-info-title" className={styles.title}>
        Personal Information
      </h2>
      {greeting ? (
        <p className={styles.greeting} role="status">
          <svg
            width="20"
            height="20"
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
            aria-hidden="true"
            focusable="false"
          >
            <path d="M4 21h16v-8H4zM4 16c2 1.5 4 1.5 6 0s4-1.5 6 0 3 1.5 4 0M12 13V9M12 6.5c-.8-.8-.8-1.7 0-2.5.8.8.8 1.7 0 2.5Z" />
          </svg>
          <span>{greeting}</span>
        </p>
      ) : null}
      <div className={styles.grid}>
        <TextField
          label="Name"
          name="name"
          autoComplete="name"
          required
          value={values.name}
          error={errors.name}
          onChange={(event) => setValues({ ...values, name: event.target.value })}
        />
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          required
          value={values.email}
          error={errors.email}
          onChange={(event) => setValues({ ...values, email: event.target.value })}
        />
        <TextField
          label="Phone"
          type="tel"
          name="phone"
          autoComplete="tel"
          value={values.phone}
          onChange={(event) => setValues({ ...values, phone: event.target.value })}
        />
        <TextField
          label="Date of birth"
          type="date"
          name="dob"
          autoComplete="bday"
          max={formatCalendarDate(today)}
          value={values.dob}
          error={errors.dob}
          onChange={(event) => setValues({ ...values, dob: event.target.value })}
        />
        <div className="field">
          <label className="field-label" htmlFor="profile-gender">
            Gender
          </label>
          <select
            id="profile-gender"
            className="input"
            name="gender"
            value={values.gender}
            onChange={(event) => setValues({ ...values, gender: event.target.value as Gender | '' })}
          >
            <option value="">Prefer not to say</option>
            {GENDERS.map((gender) => (
              <option key={gender} value={gender}>
                {gender}
              </option>
            ))}
          </select>
        </div>
        <div className={styles.age}>
          <span className="field-label">Age</span>
          <span data-testid="profile-age">{age === null ? 'Not set' : `${age} ${age === 1 ? 'year' : 'years'}`}</span>
        </div>
      </div>
      <button type="submit" className="btn btn-primary" disabled={isLoading}>
        {isLoading ? 'Saving...' : 'Save Profile'}
      </button>
    </form>
  );
}

/**
 * The personal info part of the profile: name, e-mail, phone, date of birth and gender, the age from the
 * saved date of birth and the birthday greeting. Starts from the stored user and follows GET /auth/me.
 */
export function PersonalInfoForm() {
  const storedUser = useAppSelector(selectCurrentUser);
  const { data: freshUser } = useGetCurrentUserQuery();
  const user = freshUser ?? storedUser;
  if (!user) return null;
  // A fresh form when the server's copy arrives or changes (the key holds every field the form shows).
  const key = JSON.stringify(valuesOf(user));
  return <ProfileForm key={key} user={user} />;
}
