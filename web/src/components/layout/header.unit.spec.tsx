import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/testing/render-with-providers';
import { Header, type HeaderProps } from './header';

function renderHeader(props: Partial<HeaderProps> = {}) {
  const onLogout = vi.fn();
  renderWithProviders(<Header user={null} cartLineCount={0} onLogout={onLogout} {...props} />);
  return { onLogout };
}

const linkNames = () => screen.getAllByRole('link').map((link) => link.textContent);
const hrefOf = (name: string) => screen.getByRole('link', { name }).getAttribute('href');

describe('Header', () => {
  it('always links the logo home, Shop to /products and Help to /contact, with inert search and favourites', () => {
    renderHeader();
    expect(hrefOf('Kapda')).toBe('/');
    expect(hrefOf('Shop')).toBe('/products');
    expect(hrefOf('Help')).toBe('/contact');
    expect(screen.getByRole('button', { name: 'Search' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Favourites' })).toBeTruthy();
  });

  it('shows Login and Sign up to a logged-out visitor, and no account links', () => {
    renderHeader();
    expect(hrefOf('Login')).toBe('/login');
    expect(hrefOf('Sign up')).toBe('/signup');
    expect(linkNames()).not.toContain('My Profile');
    expect(linkNames()).not.toContain('My Orders');
    expect(linkNames()).not.toContain('Admin Dashboard');
    expect(screen.queryByRole('button', { name: 'Logout' })).toBeNull();
  });

  it('shows My Profile, My Orders and Logout to a shopper, not Login or the dashboard', () => {
    const { onLogout } = renderHeader({ user: { name: 'Asha Rao', isAdmin: false } });
    expect(hrefOf('My Profile')).toBe('/profile');
    expect(hrefOf('My Orders')).toBe('/my-orders');
    expect(linkNames()).not.toContain('Login');
    expect(linkNames()).not.toContain('Sign up');
    expect(linkNames()).not.toContain('Admin Dashboard');

    fireEvent.click(screen.getByRole('button', { name: /Asha/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(onLogout).toHaveBeenCalledOnce();
  });

  it('shows Admin Dashboard and Logout to an admin, not My Profile or My Orders', () => {
    renderHeader({ user: { name: 'Ravi Admin', isAdmin: true } });
    expect(hrefOf('Admin Dashboard')).toBe('/admin');
    expect(screen.getByRole('button', { name: 'Logout' })).toBeTruthy();
    expect(linkNames()).not.toContain('My Profile');
    expect(linkNames()).not.toContain('My Orders');
    expect(linkNames()).not.toContain('Login');
  });

  it('badges the cart with the number of lines only when above zero', () => {
    renderHeader({ cartLineCount: 3 });
    const cart = screen.getByRole('link', { name: 'Cart (3 items)' });
    expect(cart.getAttribute('href')).toBe('/cart');
    expect(within(cart).getByTestId('cart-badge').textContent).toBe('3');
  });

  it('has no badge on an empty cart', () => {
    renderHeader({ cartLineCount: 0 });
    expect(screen.queryByTestId('cart-badge')).toBeNull();
    expect(screen.getByRole('link', { name: 'Cart' })).toBeTruthy();
  });

  it('opens and closes the mobile menu with its toggle', () => {
    renderHeader();
    const toggle = screen.getByRole('button', { name: 'Open menu' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(screen.getByRole('button', { name: 'Close menu' }).getAttribute('aria-expanded')).toBe('true');
  });
});
