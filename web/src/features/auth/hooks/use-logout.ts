import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAppDispatch } from '@/app/hooks';
import { paths } from '@/config/paths';
import { api } from '@/lib/api-client';
import { loggedOut } from '../session-slice';

/** Logs out: returns to the homepage, then clears the session and the answers fetched with it. */
export function useLogout(): () => void {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  return useCallback(() => {
    // Leave first: clearing the session while a login-required page is still shown would make its guard
    // redirect to /login and override the way home.
    void Promise.resolve(navigate(paths.home.getHref())).finally(() => {
      dispatch(loggedOut());
      dispatch(api.util.resetApiState());
    });
  }, [dispatch, navigate]);
}
