import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { buildUser } from '@/testing/data';
import { fakeApi, jsonResponse, requestsOf } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render-with-providers';
import { SignupForm, validateSignup } from './signup-form';

const valid = {
  name: 'Asha Rao',
  email: 'asha@example.in',
  phone: '9000000000',
  password: 'secret1',
  confirmPassword: 'secret1',
};

describe('validateSignup', () => {
  it('accepts a complete form', () => {
    expect(validateSignup(valid)).toEqual({});
  });

  it('requires every field', () => {
    const errors = validateSignup({ name: ' ', email: '', phone: '', password: '', confirmPassword: '' });
    expect(Object.keys(errors).sort()).toEqual(['confirmPassword', 'email', 'name', 'password', 'phone']);
  });

  it('checks the password length and that both passwords match', () => {
    expect(validateSignup({ ...valid, password: 'abc12', confirmPassword: 'abc12' }).password).toBe(
      'Password must be at least 6 characters',
    );
    expect(validateSignup({ ...valid, confirmPassword: 'secret2' }).confirmPassword).toBe('Passwords do not match');
  });
});

function fill(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

/** Fills every field (the valid values unless given) and presses Sign up. */
function submit(values: Partial<typeof valid> = {}) {
  const form = { ...valid, ...values };
  fill('Name', form.name);
  fill('Email', form.email);
  fill('Phone', form.phone);
  fill('Password', form.password);
  fill('Confirm password', form.confirmPassword);
  fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
}

describe('SignupForm', () => {
  it('shows the mismatch and sends nothing', () => {
    const fetchMock = fakeApi({});
    renderWithProviders(<SignupForm onSuccess={vi.fn()} loginHref="/login" />);
    submit({ password: 'secret1', confirmPassword: 'secret2' });

    expect(screen.getByText('Passwords do not match')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("refuses the phone number '12' beside the field and sends nothing", () => {
    const fetchMock = fakeApi({});
    renderWithProviders(<SignupForm onSuccess={vi.fn()} loginHref="/login" />);
    submit({ phone: '12' });

    expect(screen.getByText('Please enter a valid 10-digit mobile number')).toBeTruthy();
    expect(screen.getByLabelText('Phone').getAttribute('aria-invalid')).toBe('true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('registers, stores the session and welcomes the new user', async () => {
    const user = buildUser();
    const fetchMock = fakeApi({ 'POST /api/auth/register': () => jsonResponse({ user, token: 't-1' }, 201) });
    const onSuccess = vi.fn();
    const { store } = renderWithProviders(<SignupForm onSuccess={onSuccess} loginHref="/login" />);
    submit();

    await vi.waitFor(() => expect(onSuccess).toHaveBeenCalledWith(user));
    expect(await requestsOf(fetchMock)[0]?.json()).toEqual({
      name: valid.name,
      email: valid.email,
      phone: valid.phone,
      password: valid.password,
    });
    expect(store.getState().session).toEqual({ user, token: 't-1' });
    expect(store.getState().notifications.items.at(-1)).toMatchObject({
      type: 'success',
      message: 'Welcome! Account created successfully',
    });
  });

  it("says 'Registration failed' with the server message", async () => {
    fakeApi({ 'POST /api/auth/register': () => jsonResponse({ message: 'Email already registered' }, 409) });
    const { store } = renderWithProviders(<SignupForm onSuccess={vi.fn()} loginHref="/login" />);
    submit();

    await vi.waitFor(() =>
      expect(store.getState().notifications.items.at(-1)).toMatchObject({
        type: 'error',
        title: 'Registration failed',
        message: 'Email already registered',
      }),
    );
    expect(store.getState().session.user).toBeNull();
  });
});
