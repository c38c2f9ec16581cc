import { useEffect, useId, useRef, useState } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { paths } from '@/config/paths';
import { site } from '@/config/site';
import { CartIcon, ChevronDownIcon, CloseIcon, HeartIcon, MenuIcon, SearchIcon, UserIcon } from '@/components/ui/icons';
import styles from './header.module.css';

export type HeaderUser = { name: string; isAdmin: boolean };

export type HeaderProps = {
  /** The logged-in user, or null when logged out. */
  user: HeaderUser | null;
  /** Distinct cart lines; the badge shows only when above 0. */
  cartLineCount: number;
  onLogout: () => void;
};

function navLinkClass({ isActive }: { isActive: boolean }) {
  return isActive ? `${styles.navLink} ${styles.active}` : styles.navLink;
}

/**
 * Sticky site header. Logged out: Login and Sign up. Logged in: an account menu with My Profile and My
 * Orders for shoppers, Admin Dashboard for admins, and Logout for both. On small screens the links fold
 * into a panel opened by the menu button, where the account menu is shown expanded.
 */
export function Header({ user, cartLineCount, onLogout }: HeaderProps) {
  const [menuOpen, setMenuOpen] = useState(false);
  const [accountOpen, setAccountOpen] = useState(false);
  const accountRef = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const accountMenuId = useId();

  const closeMenus = () => {
    setMenuOpen(false);
    setAccountOpen(false);
  };

  useEffect(() => {
    if (!accountOpen) return undefined;
    const closeOnOutsideClick = (event: MouseEvent) => {
      if (!accountRef.current?.contains(event.target as Node)) setAccountOpen(false);
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setAccountOpen(false);
    };
    document.addEventListener('mousedown', closeOnOutsideClick);
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.removeEventListener('mousedown', closeOnOutsideClick);
      document.removeEventListener('keydown', closeOnEscape);
    };
  }, [accountOpen]);

  const firstName = user?.name.trim().split(/\s+/)[0] || 'Account';

  return (
    <header className={styles.header}>
      <div className={`container ${styles.bar}`}>
        <button
          type="button"
          className={`${styles.iconButton} ${styles.menuToggle}`}
          aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          aria-expanded={menuOpen}
          aria-controls={menuId}
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? <CloseIcon /> : <MenuIcon />}
        </button>

        <Link to={paths.home.getHref()} className={styles.logo} onClick={closeMenus}>
          {site.name}
        </Link>

        <nav id={menuId} aria-label="Main" className={menuOpen ? `${styles.menu} ${styles.menuOpen}` : styles.menu}>
          <ul className={styles.navList}>
            <li>
              <NavLink to={paths.products.getHref()} className={navLinkClass} onClick={closeMenus}>
                Shop
              </NavLink>
            </li>
            <li>
              <NavLink to={paths.contact.getHref()} className={navLinkClass} onClick={closeMenus}>
                Help
              </NavLink>
            </li>
          </ul>

          {user ? (
            <div className={styles.account} ref={accountRef}>
              <button
                type="button"
                className={styles.accountToggle}
                aria-expanded={accountOpen}
                aria-controls={accountMenuId}
                onClick={() => setAccountOpen((open) => !open)}
              >
                <UserIcon />
                <span>{firstName}</span>
                <ChevronDownIcon width={16} height={16} />
              </button>
              <ul
                id={accountMenuId}
                className={accountOpen ? `${styles.accountMenu} ${styles.accountMenuOpen}` : styles.accountMenu}
              >
                {user.isAdmin ? (
                  <li>
                    <Link to={paths.admin.root.getHref()} className={styles.accountItem} onClick={closeMenus}>
                      Admin Dashboard
                    </Link>
                  </li>
                ) : (
                  <>
                    <li>
                      <Link to={paths.profile.getHref()} className={styles.accountItem} onClick={closeMenus}>
                        My Profile
                      </Link>
                    </li>
                    <li>
                      <Link to={paths.myOrders.getHref()} className={styles.accountItem} onClick={closeMenus}>
                        My Orders
                      </Link>
                    </li>
                  </>
                )}
                <li>
                  <button
                    type="button"
                    className={styles.accountItem}
                    onClick={() => {
                      closeMenus();
                      onLogout();
                    }}
                  >
                    Logout
                  </button>
                </li>
              </ul>
            </div>
          ) : (
            <ul className={styles.authList}>
              <li>
                <NavLink to={paths.login.getHref()} className={navLinkClass} onClick={closeMenus}>
                  Login
                </NavLink>
              </li>
              <li>
                <Link to={paths.signup.getHref()} className="btn btn-primary btn-sm" onClick={closeMenus}>
                  Sign up
                </Link>
              </li>
            </ul>
          )}
        </nav>

        <div className={styles.actions}>
          {/* Search and favourites are placeholders in this version of the shop: present, no behaviour. */}
          <button type="button" className={styles.iconButton} aria-label="Search">
            <SearchIcon />
          </button>
          <button type="button" className={styles.iconButton} aria-label="Favourites">
            <HeartIcon />
          </button>
          <Link
            to={paths.cart.getHref()}
            className={`${styles.iconButton} ${styles.cartLink}`}
            aria-label={
              cartLineCount > 0 ? `Cart (${cartLineCount} ${cartLineCount === 1 ? 'item' : 'items'})` : 'Cart'
            }
            onClick={closeMenus}
          >
            <CartIcon />
            {cartLineCount > 0 ? (
              <span className={styles.badge} data-testid="cart-badge" aria-hidden="true">
                {cartLineCount}
              </span>
            ) : null}
          </Link>
        </div>
      </div>
    </header>
  );
}
