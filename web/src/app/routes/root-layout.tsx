import { Outlet, ScrollRestoration, useNavigation, type Location } from 'react-router-dom';
import { Footer } from '@/components/layout/footer';
import { Header } from '@/components/layout/header';
import { Notifications } from '@/components/notifications/notifications';
import { useLogout } from '@/features/auth/hooks/use-logout';
import { selectCurrentUser } from '@/features/auth/session-slice';
import { CartAddedNotice } from '@/features/cart/components/cart-added-notice';
import { selectCartLineCount } from '@/features/cart/cart-slice';
import { useAppSelector } from '../hooks';
import { useSessionExpiryRedirect } from '../session-expiry';

/**
 * Where a page's scroll position is kept. React Router gives every page loaded afresh (a typed URL, an e-mail's
 * link, a reload) the same history key, 'default', so one such page would open at another's position: the cart
 * at the bottom because the shop list was scrolled far before. Those are kept by their path instead, so a reload
 * still comes back to where it was; pages reached in the app keep their own keys.
 */
export function scrollPositionKey(location: Location): string {
  return location.key === 'default' ? `${location.pathname}${location.search}` : location.key;
}

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
      <ScrollRestoration getKey={scrollPositionKey} />
    </div>
  );
}
