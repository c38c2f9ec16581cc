import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { buildProduct, buildUser } from '@/testing/data';
import { fakeApi, jsonResponse } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-with-providers';

describe('root layout', () => {
  it('shows header and footer around every page', async () => {
    fakeApi({ 'GET /api/products': () => jsonResponse([]) });
    renderApp({ route: '/contact' });

    expect(await screen.findByRole('heading', { name: 'Contact us' })).toBeTruthy();
    const footer = screen.getByRole('contentinfo');
    expect(within(footer).getByText('Stylish clothing for everyone')).toBeTruthy();
    expect(within(footer).getByRole('link', { name: "Women's" }).getAttribute('href')).toBe('/products?category=Women');
    expect(within(footer).getByText(/^\+91/)).toBeTruthy();
    expect(within(footer).getByText(new RegExp(`© ${new Date().getFullYear()}`))).toBeTruthy();
    expect(screen.getAllByText('Mon-Sat, 10 AM to 7 PM IST').length).toBeGreaterThan(0);
  });

  it('logs out from the menu: session removed from storage and back to the homepage', async () => {
    fakeApi({ 'GET /api/products': () => jsonResponse([buildProduct({ name: 'Cotton Kurta' })]) });
    window.localStorage.setItem('token', 'token-1');
    const user = buildUser();
    window.localStorage.setItem('user', JSON.stringify(user));
    const { router } = renderApp({ route: '/my-orders' });

    fireEvent.click(await screen.findByRole('button', { name: 'Logout' }));

    expect(await screen.findByRole('heading', { name: 'New Arrivals' })).toBeTruthy();
    // The header offers Login again (the testimonials section has its own login link too).
    const logins = await screen.findAllByRole('link', { name: 'Login' });
    expect(logins.some((link) => link.getAttribute('href') === '/login')).toBe(true);
    expect(router.state.location.pathname).toBe('/');
    // New Arrivals (and Best Sellers: the fake answers both lists) show the product to the visitor.
    expect((await screen.findAllByRole('article', { name: 'Cotton Kurta' })).length).toBeGreaterThan(0);
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(window.localStorage.getItem('user')).toBeNull();
  });

  it('adds to the cart from a card: toast, notice, badge and stored cart', async () => {
    fakeApi({ 'GET /api/products': () => jsonResponse([buildProduct({ id: 7, name: 'Cotton Kurta', price: 1299 })]) });
    renderApp({ route: '/products' });

    const card = await screen.findByRole('article', { name: 'Cotton Kurta' });
    fireEvent.click(within(card).getByRole('button', { name: 'Add to Cart' }));
    fireEvent.click(within(card).getByRole('button', { name: 'Add to Cart' }));

    expect(screen.getAllByText('Added to cart').length).toBeGreaterThan(0);
    const notice = screen.getByRole('complementary', { name: 'Added to cart' });
    expect(within(notice).getByText('Added! (2 total)')).toBeTruthy();
    expect(within(notice).getByText('₹1,299.00 x 2')).toBeTruthy();
    expect(within(notice).getByRole('link', { name: 'View' }).getAttribute('href')).toBe('/cart');
    expect(screen.getByTestId('cart-badge').textContent).toBe('1');
    expect(JSON.parse(window.localStorage.getItem('cart') ?? '[]')).toMatchObject([
      { id: 7, quantity: 2, size: null, color: null },
    ]);

    fireEvent.click(within(notice).getByRole('button', { name: 'Close cart notice' }));
    expect(screen.queryByRole('complementary', { name: 'Added to cart' })).toBeNull();
  });

  describe('scroll position of a page loaded afresh', () => {
    // React Router keeps positions in sessionStorage by history key; every fresh load's key is 'default'.
    const saved = (positions: Record<string, number>) =>
      window.sessionStorage.setItem('react-router-scroll-positions', JSON.stringify(positions));

    it("opens at the top, not where another page loaded afresh was left (the cart at the shop list's depth)", async () => {
      saved({ default: 3000 });
      const scrollTo = vi.spyOn(window, 'scrollTo');
      fakeApi({ 'GET /api/products': () => jsonResponse([]) });
      const { router } = renderApp({ route: '/contact' });

      expect(await screen.findByRole('heading', { name: 'Contact us' })).toBeTruthy();
      expect(router.state.location.key).toBe('default');
      await waitFor(() => expect(scrollTo).toHaveBeenCalledWith(0, 0));
      expect(router.state.restoreScrollPosition).toBeNull();
      expect(scrollTo).not.toHaveBeenCalledWith(0, 3000);
      scrollTo.mockRestore();
      window.sessionStorage.clear();
    });

    it('comes back to where the same page was left on a reload', async () => {
      saved({ '/contact': 480 });
      const scrollTo = vi.spyOn(window, 'scrollTo');
      fakeApi({ 'GET /api/products': () => jsonResponse([]) });
      const { router } = renderApp({ route: '/contact' });

      expect(await screen.findByRole('heading', { name: 'Contact us' })).toBeTruthy();
      expect(router.state.restoreScrollPosition).toBe(480);
      await waitFor(() => expect(scrollTo).toHaveBeenCalledWith(0, 480));
      scrollTo.mockRestore();
      window.sessionStorage.clear();
    });
  });
});
