import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { buildProduct } from '@/testing/data';
import { fakeApi, jsonResponse } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render-with-providers';
import { ProductList } from './product-list';

const products = [
  buildProduct({ name: 'Cotton Kurta', description: 'Hand block print', category: 'Men', price: 1299 }),
  buildProduct({ name: 'Silk Saree', description: 'Banarasi weave', category: 'Women ', price: 4500.5 }),
  buildProduct({ name: 'Linen Shirt', description: 'Breathable cotton blend', category: 'Men', quantity: 0 }),
  buildProduct({ name: 'Hidden Dupatta', category: 'Women', isDelisted: true }),
];

function renderList(route = '/products') {
  const actions = { onAddToCart: vi.fn(), onBuyNow: vi.fn() };
  const view = renderWithProviders(<ProductList {...actions} />, { route, path: '/products' });
  return { ...view, actions };
}

const cardNames = () => screen.getAllByRole('article').map((card) => card.getAttribute('aria-label'));

describe('ProductList', () => {
  it("lists products under 'shop' with 'All Product' and its count, then the categories", async () => {
    fakeApi({ 'GET /api/products': () => jsonResponse(products) });
    renderList();

    expect(await screen.findByRole('article', { name: 'Cotton Kurta' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('shop');
    const categories = within(screen.getByRole('navigation', { name: 'Categories' })).getAllByRole('button');
    expect(categories.map((button) => button.textContent)).toEqual(['All Product(3)', 'Men', 'Women']);
    expect(categories[0]?.getAttribute('aria-pressed')).toBe('true');
    expect(cardNames()).toEqual(['Cotton Kurta', 'Silk Saree', 'Linen Shirt']);
  });

  it('filters live by name or description, ignoring case', async () => {
    fakeApi({ 'GET /api/products': () => jsonResponse(products) });
    renderList();
    await screen.findByRole('article', { name: 'Cotton Kurta' });

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search products' }), { target: { value: 'COTTON' } });
    expect(cardNames()).toEqual(['Cotton Kurta', 'Linen Shirt']);

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search products' }), {
      target: { value: 'no such thing' },
    });
    expect(screen.queryAllByRole('article')).toHaveLength(0);
    expect(screen.getByText('No products found')).toBeTruthy();
  });

  it('filters by the chosen category and combines it with the search', async () => {
    fakeApi({ 'GET /api/products': () => jsonResponse(products) });
    const { router } = renderList();
    await screen.findByRole('article', { name: 'Cotton Kurta' });

    fireEvent.click(screen.getByRole('button', { name: 'Women' }));
    expect(cardNames()).toEqual(['Silk Saree']);
    expect(router.state.location.search).toBe('?category=Women');

    fireEvent.click(screen.getByRole('button', { name: 'Men' }));
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search products' }), { target: { value: 'breathable' } });
    expect(cardNames()).toEqual(['Linen Shirt']);

    fireEvent.click(screen.getByRole('button', { name: /All Product/ }));
    expect(router.state.location.search).toBe('');
  });

  it('preselects the category named in ?category=', async () => {
    fakeApi({ 'GET /api/products': () => jsonResponse(products) });
    renderList('/products?category=women');

    expect(await screen.findByRole('article', { name: 'Silk Saree' })).toBeTruthy();
    expect(cardNames()).toEqual(['Silk Saree']);
    expect(screen.getByRole('button', { name: 'Women' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('shows the card details and disables both buttons when out of stock', async () => {
    fakeApi({ 'GET /api/products': () => jsonResponse(products) });
    const { actions } = renderList();

    const kurta = await screen.findByRole('article', { name: 'Cotton Kurta' });
    expect(within(kurta).getByText('₹1,299.00')).toBeTruthy();
    expect(within(kurta).getByText('4.5')).toBeTruthy();
    expect(within(kurta).getByText('(0 Reviews)')).toBeTruthy();
    expect(within(kurta).getByText('Men')).toBeTruthy();
    expect(within(kurta).queryByText('Out of Stock')).toBeNull();
    fireEvent.click(within(kurta).getByRole('button', { name: 'Add to Cart' }));
    expect(actions.onAddToCart).toHaveBeenCalledWith(expect.objectContaining({ name: 'Cotton Kurta' }));

    const shirt = screen.getByRole('article', { name: 'Linen Shirt' });
    expect(within(shirt).getByText('Out of Stock')).toBeTruthy();
    expect(within(shirt).getByRole('button', { name: 'Add to Cart' }).hasAttribute('disabled')).toBe(true);
    expect(within(shirt).getByRole('button', { name: 'Buy Now' }).hasAttribute('disabled')).toBe(true);
  });

  it("shows 'No products found' when the list fails to load", async () => {
    fakeApi({ 'GET /api/products': () => jsonResponse({ message: 'Catalog unavailable' }, 503) });
    renderList();
    expect(await screen.findByText('No products found')).toBeTruthy();
  });

  it('lists only the collection given by ?collection= (GET /products?collection={id})', async () => {
    const fetchMock = fakeApi({
      'GET /api/products': (request) => {
        const collection = new URL(request.url).searchParams.get('collection');
        if (collection === '7') return jsonResponse([products[1]]);
        if (collection) return jsonResponse({ message: 'Collection not found' }, 404);
        return jsonResponse(products);
      },
    });
    const { unmount } = renderList('/products?collection=7');
    expect(await screen.findByRole('article', { name: 'Silk Saree' })).toBeTruthy();
    expect(cardNames()).toEqual(['Silk Saree']);
    expect(fetchMock.mock.calls).toHaveLength(1);
    unmount();

    renderList('/products?collection=99');
    expect(await screen.findByText('No products found')).toBeTruthy();
  });
});
