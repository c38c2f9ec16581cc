import {
  addListener,
  createAction,
  createListenerMiddleware,
  isRejectedWithValue,
  type Middleware,
} from '@reduxjs/toolkit';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { paths } from '@/config/paths';
import { loggedOut } from '@/features/auth/session-slice';
import { api } from '@/lib/api-client';
import { useAppDispatch } from './hooks';

/** The API refused the stored token (401): the session is over and the user must log in again. */
export const sessionExpired = createAction('session/expired');

// Calls whose 401 means wrong credentials, not a stale token.
const CREDENTIAL_CALLS = new Set(['login', 'register']);

function isUnauthorizedAnswer(action: unknown): action is { meta: { arg: { endpointName: string } } } {
  if (!isRejectedWithValue(action)) return false;
  const payload = action.payload as { status?: unknown } | undefined;
  const meta = action.meta as { arg?: { endpointName?: unknown } };
  return (
    payload?.status === 401 &&
    typeof meta.arg?.endpointName === 'string' &&
    !CREDENTIAL_CALLS.has(meta.arg.endpointName)
  );
}

/**
 * The 401 rule: any API call answered 401 while a user is logged in ends the session (user and token leave
 * the store, and so browser storage), drops the answers fetched with it, and announces sessionExpired so the
 * page can send the user to /login. A visitor's 401 (e.g. 'Please login to submit a review') is left to
 * the screen that made the call.
 */
export function createSessionExpiryMiddleware(): Middleware {
  const listener = createListenerMiddleware<{ session: { user: unknown } }>();
  listener.startListening({
    predicate: (action, _current, previous) => previous.session.user !== null && isUnauthorizedAnswer(action),
    effect: (_action, { dispatch }) => {
      dispatch(loggedOut());
      dispatch(sessionExpired());
      dispatch(api.util.resetApiState());
    },
  });
  return listener.middleware;
}

/**
 * Sends the user to /login when their session expires, remembering the page they were on (as the guard of
 * login-required pages does). Mounted once, in the root layout.
 */
export function useSessionExpiryRedirect(): void {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const here = useRef('');
  here.current = `${location.pathname}${location.search}${location.hash}`;
  useEffect(
    () =>
      dispatch(
        addListener({
          actionCreator: sessionExpired,
          effect: () => {
            const from = here.current;
            const onLogin = from.split(/[?#]/, 1)[0] === paths.login.path;
            if (!onLogin) void navigate(paths.login.getHref(from), { replace: true });
          },
        }),
      ),
    [dispatch, navigate],
  );
}
