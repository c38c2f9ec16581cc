import type { FormEvent } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { SelectField, TextField } from '@/components/form/text-field';
import { useFormFields } from '@/components/form/use-form-fields';
import { failureShown, notificationShown } from '@/components/notifications/notifications-slice';
import { CakeIcon } from '@/components/ui/icons';
import type { Gender, User } from '@/types/api';
import { phoneProblem } from '@/types/fields';
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
type Errors = Partial<Record<'name' | 'email' | 'phone' | 'dob', string>>;

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
  // The phone may be cleared; one that is given is an Indian mobile number.
  const phone = phoneProblem(values.phone, { blankAllowed: true });
  if (phone) errors.phone = phone;
  const dob = parseCalendarDate(values.dob);
  if (values.dob && !dob) errors.dob = 'Please enter a valid date';
  else if (dob && isInFuture(dob, today)) errors.dob = 'Birth date cannot be in the future';
  return errors;
}

function ProfileForm({ user }: { user: User }) {
  const dispatch = useAppDispatch();
  const [update, { isLoading }] = useUpdateCurrentUserMutation();
  const today = calendarDateOf(new Date());
  const { values, setValues, field, control, check } = useFormFields<Values>(
    () => valuesOf(user),
    (current) => validateProfile(current, today),
  );
  const savedDob = parseCalendarDate(user.dob);
  const age = ageOn(savedDob, today);
  const greeting = birthdayGreeting(user.name, savedDob, today);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!check()) return;
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
      dispatch(failureShown('Update failed', error));
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
          <CakeIcon />
          <span>{greeting}</span>
        </p>
      ) : null}
      <div className={styles.grid}>
        <TextField label="Name" autoComplete="name" required {...field('name')} />
        <TextField label="Email" type="email" autoComplete="email" required {...field('email')} />
        <TextField label="Phone" type="tel" autoComplete="tel" {...field('phone')} />
        <TextField
          label="Date of birth"
          type="date"
          autoComplete="bday"
          max={formatCalendarDate(today)}
          {...field('dob')}
        />
        <SelectField label="Gender" {...control('gender')}>
          <option value="">Prefer not to say</option>
          {GENDERS.map((gender) => (
            <option key={gender} value={gender}>
              {gender}
            </option>
          ))}
        </SelectField>
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
