import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi, jsonResponse, requestsOf } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-with-providers';
import { validateResetPassword } from './reset-password-form';

const SENT = 'If an account exists for that e-mail, we have sent it a link to reset the password.';

function fill(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

describe('validateResetPassword', () => {
  it("uses the signup's rules and words", () => {
    expect(validateResetPassword({ password: 'secret1', confirmPassword: 'secret1' })).toEqual({});
    expect(validateResetPassword({ password: 'abc12', confirmPassword: 'abc12' }).password).toBe(
      'Password must be at least 6 characters',
    );
    expect(validateResetPassword({ password: 'secret1', confirmPassword: 'secret2' }).confirmPassword).toBe(
      'Passwords do not match',
    );
  });
});

describe('Forgot password', { timeout: 15_000 }, () => {
  it('is linked from the login page, and asks for the e-mail (labelled) before sending anything', async () => {
    const fetchMock = fakeApi({});
    const { router } = renderApp({ route: '/login' });
    fireEvent.click(await screen.findByRole('link', { name: 'Forgot password?' }));
    expect(await screen.findByRole('heading', { name: 'Forgot password?' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/forgot-password');
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(screen.getByText('Email is required')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("sends the e-mail and shows the server's one answer in place of the form", async () => {
    const fetchMock = fakeApi({ 'POST /api/auth/forgot-password': () => jsonResponse({ message: SENT }) });
    renderApp({ route: '/forgot-password' });
    await screen.findByRole('heading', { name: 'Forgot password?' });
    fill('Email', ' asha@example.in ');
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('heading', { name: 'Check your e-mail' })).toBeTruthy();
    expect(screen.getByText(SENT)).toBeTruthy();
    expect(await requestsOf(fetchMock)[0]?.json()).toEqual({ email: 'asha@example.in' });
    expect(screen.queryByLabelText('Email')).toBeNull();
  });
});

describe('Reset password', { timeout: 15_000 }, () => {
  it('sends the token from the link with the new password, then goes to the login page with a notice', async () => {
    const fetchMock = fakeApi({
      'POST /api/auth/reset-password': () =>
        jsonResponse({ message: 'Your password has been reset. Please log in with your new password.' }),
    });
    const { router, store } = renderApp({ route: '/reset-password#0b4c.secret%2Dpart' });
    await screen.findByRole('heading', { name: 'Reset password' });
    fill('New password', 'abc');
    fill('Confirm password', 'abc');
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(screen.getByText('Password must be at least 6 characters')).toBeTruthy();
    fill('New password', 'new-secret-7');
    fill('Confirm password', 'new-secret-8');
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(screen.getByText('Passwords do not match')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();

    fill('Confirm password', 'new-secret-7');
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await requestsOf(fetchMock)[0]?.json()).toEqual({ token: '0b4c.secret-part', password: 'new-secret-7' });
    expect(store.getState().notifications.items.at(-1)).toMatchObject({
      type: 'success',
      title: 'Password reset',
      message: 'Your password has been reset. Please log in with your new password.',
    });
  });

  it("shows the server's refusal of a used or expired link, and offers a new one", async () => {
    const refusal = 'This password reset link is invalid or has expired. Please ask for a new one.';
    fakeApi({ 'POST /api/auth/reset-password': () => jsonResponse({ message: refusal }, 400) });
    const { store, router } = renderApp({ route: '/reset-password#used.token' });
    await screen.findByRole('heading', { name: 'Reset password' });
    fill('New password', 'new-secret-7');
    fill('Confirm password', 'new-secret-7');
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    await vi.waitFor(() =>
      expect(store.getState().notifications.items.at(-1)).toMatchObject({
        type: 'error',
        title: 'Password reset failed',
        message: refusal,
      }),
    );
    expect(router.state.location.pathname).toBe('/reset-password');
    expect(screen.getByRole('link', { name: 'Send a new reset link' }).getAttribute('href')).toBe('/forgot-password');
  });

  it('says so when the link carries no token', async () => {
    renderApp({ route: '/reset-password' });
    expect(await screen.findByText('This link has no reset token. Please ask for a new one.')).toBeTruthy();
    expect(screen.queryByLabelText('New password')).toBeNull();
  });
});
