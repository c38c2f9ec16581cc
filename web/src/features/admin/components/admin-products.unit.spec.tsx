import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildProduct } from '@/testing/data';
import { fakeApi, jsonResponse, requestsOf } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render-with-providers';
import { AdminProducts } from './admin-products';

type Store = ReturnType<typeof renderWithProviders>['store'];
const noticesOf = (store: Store) => store.getState().notifications.items.map((n) => `${n.title}: ${n.message ?? ''}`);

const kurta = buildProduct({ id: 'p1', name: 'Cotton Kurta', price: 1299, sizeQuantities: { S: 1, M: 2 } });
const saree = buildProduct({ id: 'p2', name: 'Silk Saree', isDelisted: true });

function render(route = '/admin/products') {
  return renderWithProviders(<AdminProducts />, { route, path: '/admin/products' });
}

// Rendering with the store and router is slow on a busy machine: a roomier limit than the default 5 s.
describe('AdminProducts', { timeout: 15_000 }, () => {
  it('lists every product with delisted ones, offering Delist or Activate', async () => {
    fakeApi({ 'GET /api/products': () => jsonResponse([kurta, saree]) });
    render();
    const kurtaRow = await screen.findByRole('article', { name: 'Cotton Kurta' });
    const sareeRow = screen.getByRole('article', { name: 'Silk Saree' });
    expect(within(kurtaRow).getByRole('button', { name: 'Delist' })).toBeTruthy();
    expect(within(sareeRow).getByRole('button', { name: 'Activate' })).toBeTruthy();
    expect(within(sareeRow).getByText('Delisted')).toBeTruthy();
    expect(kurtaRow.textContent).toContain('₹1,299.00');
  });

  it('starts the size map at S, M, L, XL = 0; Enter adds a new label once', async () => {
    fakeApi({ 'GET /api/products': () => jsonResponse([]) });
    render();
    for (const size of ['S', 'M', 'L', 'XL'])
      expect((screen.getByLabelText(`Size ${size}`) as HTMLInputElement).value).toBe('0');
    const input = screen.getByLabelText('New size label (press Enter to add)');
    fireEvent.change(input, { target: { value: 'XXL' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(screen.getByLabelText('Size XXL')).toBeTruthy();
    fireEvent.change(input, { target: { value: 'xxl' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(screen.getByText('Size xxl is already in the list')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Size M'), { target: { value: '-3' } });
    expect((screen.getByLabelText('Size M') as HTMLInputElement).value).toBe('0');
  });

  it("refuses an incomplete form with 'Please fill name, price, and quantity'", async () => {
    const fetchMock = fakeApi({ 'GET /api/products': () => jsonResponse([]) });
    render();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Kurta' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add Product' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Please fill name, price, and quantity');
    expect(requestsOf(fetchMock).some((r) => r.method === 'POST')).toBe(false);
  });

  it("adds a product as multipart with the size map, then says 'Product added'; 'Add failed' when refused", async () => {
    let refuse = false;
    const fetchMock = fakeApi({
      'GET /api/products': () => jsonResponse([]),
      'POST /api/products': () =>
        refuse ? jsonResponse({ message: 'price must be a number' }, 400) : jsonResponse(kurta, 201),
    });
    const { store } = render();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Cotton Kurta' } });
    fireEvent.change(screen.getByLabelText('Price (₹)'), { target: { value: '1299' } });
    fireEvent.change(screen.getByLabelText('Size S'), { target: { value: '1' } });
    fireEvent.change(screen.getByLabelText('Size M'), { target: { value: '2' } });
    expect((screen.getByLabelText('Quantity') as HTMLInputElement).value).toBe('3');
    const image = new File(['png'], 'kurta.png', { type: 'image/png' });
    fireEvent.change(screen.getByLabelText('Image'), { target: { files: [image] } });
    fireEvent.click(screen.getByRole('button', { name: 'Add Product' }));
    await waitFor(() => expect(noticesOf(store)).toContain('Success: Product added'));
    const post = requestsOf(fetchMock).find((r) => r.method === 'POST')!;
    const body = await post.formData();
    expect(body.get('name')).toBe('Cotton Kurta');
    expect(body.get('quantity')).toBe('3');
    expect(JSON.parse(String(body.get('sizeQuantities')))).toEqual({ S: 1, M: 2, L: 0, XL: 0 });
    expect(body.has('image')).toBe(true);

    refuse = true;
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Other' } });
    fireEvent.change(screen.getByLabelText('Price (₹)'), { target: { value: 'x1' } });
    fireEvent.change(screen.getByLabelText('Price (₹)'), { target: { value: '10' } });
    fireEvent.change(screen.getByLabelText('Quantity'), { target: { value: '1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add Product' }));
    await waitFor(() => expect(noticesOf(store)).toContain('Add failed: price must be a number'));
  });

  it('refuses a file that is not an image', async () => {
    fakeApi({ 'GET /api/products': () => jsonResponse([]) });
    render();
    const pdf = new File(['%PDF'], 'spec.pdf', { type: 'application/pdf' });
    fireEvent.change(screen.getByLabelText('Image'), { target: { files: [pdf] } });
    expect(screen.getByText('Only image files are allowed')).toBeTruthy();
  });

  it("edits via ?edit={id} with a JSON PUT when no new image is chosen: 'Product updated'", async () => {
    const fetchMock = fakeApi({
      'GET /api/products': () => jsonResponse([kurta, saree]),
      'PUT /api/products/p1': () => jsonResponse({ ...kurta, price: 999 }),
    });
    const { store, router } = render('/admin/products?edit=p1');
    const name = (await screen.findByDisplayValue('Cotton Kurta')) as HTMLInputElement;
    expect(name).toBe(screen.getByLabelText('Name'));
    expect((screen.getByLabelText('Size M') as HTMLInputElement).value).toBe('2');
    fireEvent.change(screen.getByLabelText('Price (₹)'), { target: { value: '999' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update Product' }));
    await waitFor(() => expect(noticesOf(store)).toContain('Success: Product updated'));
    const put = requestsOf(fetchMock).find((r) => r.method === 'PUT')!;
    expect(put.headers.get('content-type')).toContain('application/json');
    expect(await put.json()).toMatchObject({ name: 'Cotton Kurta', price: 999, sizeQuantities: { S: 1, M: 2 } });
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('Cancel Edit returns to add mode', async () => {
    fakeApi({ 'GET /api/products': () => jsonResponse([kurta]) });
    const { router } = render('/admin/products?edit=p1');
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel Edit' }));
    await screen.findByRole('button', { name: 'Add Product' });
    expect(router.state.location.search).toBe('');
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('');
  });

  it("toggles Delist with {isDelisted}, and says 'Failed to update status' when refused", async () => {
    const fetchMock = fakeApi({
      'GET /api/products': () => jsonResponse([kurta]),
      'PUT /api/products/p1/delist': () => jsonResponse({ message: 'down' }, 503),
    });
    const { store } = render();
    fireEvent.click(await screen.findByRole('button', { name: 'Delist' }));
    await waitFor(() => expect(noticesOf(store)).toContain('Failed to update status: down'));
    const put = requestsOf(fetchMock).find((r) => r.method === 'PUT')!;
    expect(await put.json()).toEqual({ isDelisted: true });
  });

  it("deletes after a confirmation: 'Product deleted', or 'Failed to delete'", async () => {
    let refuse = false;
    fakeApi({
      'GET /api/products': () => jsonResponse([kurta]),
      'DELETE /api/products/p1': () =>
        refuse ? jsonResponse({ message: 'gone' }, 404) : jsonResponse({ message: 'Product deleted', id: 'p1' }),
    });
    const { store } = render();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(noticesOf(store)).toContain('Success: Product deleted'));
    refuse = true;
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(noticesOf(store)).toContain('Failed to delete: gone'));
  });

  it("says 'Failed to load products' when the list cannot be read", async () => {
    fakeApi({ 'GET /api/products': () => jsonResponse({ message: 'down' }, 503) });
    render();
    await screen.findByText('Failed to load products');
  });
});
