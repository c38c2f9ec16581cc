import { Outlet, ScrollRestoration, useNavigation } from 'react-router-dom';
import { Footer } from '@/components/layout/footer';
import { Header } from '@/components/layout/header';
import { Notifications } from '@/components/notifications/notifications';
import { useLogout } from '@/features/auth/hooks/use-logout';
import { selectCurrentUser } from '@/features/auth/session-slice';
import { CartAddedNotice } from '@/features/cart/components/cart-added-notice';
import { selectCartLineCount } from '@/features/cart/cart-slice';
import { useAppSelector } from '../hooks';
import { useSessionExpiryRedirect } from '../session-expiry';

/** Every page: header, the page, footer, notifications and the cart-added notice. */
export function RootLayout() {
  const user = useAppSelector(selectCurrentUser);
  const cartLineCount = useAppSelector(selectCartLineCount);
  const logout = useLogout();
  const navigation = useNavigation();
  useSessionExpiryRedirect();

  return (
    <div className="app-shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      {navigation.state === 'loading' ? <div className="route-progress" aria-hidden="true" /> : null}
      <Header user={user} cartLineCount={cartLineCount} onLogout={logout} />
      <main id="main" className="app-main">
        <Outlet />
      </main>
      <Footer />
      <Notifications />
      <CartAddedNotice />
      <ScrollRestoration />
    </div>
  );
}
