import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { buildUser } from '@/testing/data';
import { fakeApi, jsonResponse, requestsOf } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render-with-providers';
import { Notifications } from '@/components/notifications/notifications';
import { PersonalInfoForm, validateProfile } from './personal-info-form';

const TODAY = new Date(2026, 10, 22, 12, 0);

function renderForm(user = buildUser({ name: 'Asha Rao', dob: '1996-11-22', gender: 'Female' })) {
  return renderWithProviders(
    <>
      <PersonalInfoForm />
      <Notifications />
    </>,
    { preloadedState: { session: { user, token: 'old-token' } } },
  );
}

describe('the personal info form', () => {
  it('shows the age from the date of birth and the birthday greeting on the day', async () => {
    vi.useFakeTimers({ now: TODAY, toFake: ['Date'] });
    fakeApi({ 'GET /api/auth/me': () => jsonResponse(buildUser({ name: 'Asha Rao', dob: '1996-11-22' })) });
    renderForm();

    expect(await screen.findByText('Happy Birthday, Asha!', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByTestId('profile-age').textContent).toBe('30 years');
    expect((screen.getByLabelText('Date of birth') as HTMLInputElement).value).toBe('1996-11-22');
  });

  it('saves through PUT /api/auth/me and keeps the fresh token and user in storage', async () => {
    vi.useFakeTimers({ now: TODAY, toFake: ['Date'] });
    const saved = buildUser({ name: 'Asha R', phone: '+919811111111', dob: '1996-11-21', gender: 'Other' });
    const fetchMock = fakeApi({
      'GET /api/auth/me': () => jsonResponse(buildUser({ name: 'Asha Rao', dob: '1996-11-22', gender: 'Female' })),
      'PUT /api/auth/me': () => jsonResponse({ user: saved, token: 'fresh-token' }),
    });
    renderForm();

    fireEvent.change(await screen.findByLabelText('Name', {}, { timeout: 5000 }), { target: { value: ' Asha R ' } });
    fireEvent.change(screen.getByLabelText('Phone'), { target: { value: '+919811111111' } });
    fireEvent.change(screen.getByLabelText('Date of birth'), { target: { value: '1996-11-21' } });
    fireEvent.change(screen.getByLabelText('Gender'), { target: { value: 'Other' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Profile' }));

    expect(await screen.findByText('Profile updated', {}, { timeout: 5000 })).toBeTruthy();
    const put = requestsOf(fetchMock).find((request) => request.method === 'PUT');
    expect(await put?.json()).toEqual({
      name: 'Asha R',
      email: 'asha@example.in',
      phone: '+919811111111',
      dob: '1996-11-21',
      gender: 'Other',
    });
    await waitFor(() => expect(window.localStorage.getItem('token')).toBe('fresh-token'));
    expect(JSON.parse(window.localStorage.getItem('user') ?? 'null')).toMatchObject({ name: 'Asha R' });
  });

  it("says 'Update failed' with the server's message when refused", async () => {
    fakeApi({
      'GET /api/auth/me': () => jsonResponse(buildUser()),
      'PUT /api/auth/me': () => jsonResponse({ message: 'Email already registered' }, 409),
    });
    const { store } = renderForm(buildUser());

    fireEvent.click(await screen.findByRole('button', { name: 'Save Profile' }, { timeout: 5000 }));

    expect(await screen.findByText('Update failed', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText('Email already registered')).toBeTruthy();
    expect(store.getState().session.token).toBe('old-token');
  });

  it('requires name and e-mail and refuses a birth date in the future', () => {
    const today = { year: 2026, month: 11, day: 22 };
    expect(validateProfile({ name: ' ', email: '', phone: '', dob: '2026-11-23', gender: '' }, today)).toEqual({
      name: 'Name is required',
      email: 'Email is required',
      dob: 'Birth date cannot be in the future',
    });
    expect(validateProfile({ name: 'A', email: 'a@b.in', phone: '', dob: '2026-11-22', gender: '' }, today)).toEqual(
      {},
    );
    // The phone may be left blank; one that is given is an Indian mobile number.
    expect(validateProfile({ name: 'A', email: 'a@b.in', phone: '12', dob: '', gender: '' }, today)).toEqual({
      phone: 'Please enter a valid 10-digit mobile number',
    });
  });
});
