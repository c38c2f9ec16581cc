import { Navigate, Outlet, useLocation, useNavigation } from 'react-router-dom';
import { paths } from '@/config/paths';
import { selectIsLoggedIn } from '@/features/auth/session-slice';
import { useAppSelector } from './hooks';

/**
 * Guards login-required routes: a visitor is sent to /login with the page they asked for in
 * ?redirectTo=. Only being logged in is checked (admin screens included); the server enforces roles.
 * While a navigation away is under way (Logout going home, say) the page stays as it is: redirecting then
 * would override where the user is going.
 */
export function RequireAuth() {
  const isLoggedIn = useAppSelector(selectIsLoggedIn);
  const location = useLocation();
  const navigation = useNavigation();
  if (!isLoggedIn && navigation.state === 'idle') {
    const from = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={paths.login.getHref(from)} replace />;
  }
  return <Outlet />;
}
