import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/testing/render-with-providers';
import { Notifications } from './notifications';
import { notificationShown } from './notifications-slice';

function renderHost() {
  vi.useFakeTimers();
  return renderWithProviders(<Notifications />);
}

describe('Notifications', () => {
  it('closes itself after the default 3500 ms', () => {
    const { store } = renderHost();
    act(() => {
      store.dispatch(notificationShown({ type: 'success', title: 'Added to cart' }));
    });

    act(() => vi.advanceTimersByTime(3499));
    expect(screen.getByText('Added to cart')).toBeTruthy();

    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Added to cart')).toBeNull();
  });

  it('honours its own duration, and stays until closed when it is 0 or less', () => {
    const { store } = renderHost();
    act(() => {
      store.dispatch(notificationShown({ type: 'info', title: 'Quick', durationMs: 1000 }));
      store.dispatch(notificationShown({ type: 'error', title: 'Sticky', durationMs: 0 }));
      store.dispatch(notificationShown({ type: 'error', title: 'Also sticky', durationMs: -1 }));
    });

    act(() => vi.advanceTimersByTime(1000));
    expect(screen.queryByText('Quick')).toBeNull();

    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.getByText('Sticky')).toBeTruthy();
    expect(screen.getByText('Also sticky')).toBeTruthy();
  });

  it('closes with its close button', () => {
    const { store } = renderHost();
    act(() => {
      store.dispatch(
        notificationShown({ type: 'error', title: 'Login failed', message: 'Wrong password', durationMs: 0 }),
      );
    });

    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Wrong password');
    fireEvent.click(screen.getByRole('button', { name: 'Close notification' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('titles a notification Success, Error or Notice by its type when no title is given', () => {
    const { store } = renderHost();
    act(() => {
      store.dispatch(notificationShown({ type: 'success', message: 'Welcome! Account created successfully' }));
      store.dispatch(notificationShown({ type: 'error', message: 'Something broke' }));
      store.dispatch(notificationShown({ type: 'info', message: 'Payment cancelled' }));
    });

    expect(screen.getByText('Success')).toBeTruthy();
    expect(screen.getByText('Error')).toBeTruthy();
    expect(screen.getByText('Notice')).toBeTruthy();
    expect(screen.getByText('Welcome! Account created successfully')).toBeTruthy();
  });
});
