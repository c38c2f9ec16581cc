import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { paths } from '@/config/paths';
import { selectIsLoggedIn } from '@/features/auth/session-slice';
import { useAppSelector } from './hooks';

/**
 * Guards login-required routes: a visitor is sent to /login with the page they asked for in
 * ?redirectTo=. Only being logged in is checked (admin screens included); the server enforces roles.
 */
export function RequireAuth() {
  const isLoggedIn = useAppSelector(selectIsLoggedIn);
  const location = useLocation();
  if (!isLoggedIn) {
    const from = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={paths.login.getHref(from)} replace />;
  }
  return <Outlet />;
}
