import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { buildProduct } from '@/testing/data';
import { fakeApi, jsonResponse } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render-with-providers';
import { ProductDetail } from './product-detail';

function renderDetail(productId = '5') {
  const onAddToCart = vi.fn();
  renderWithProviders(<ProductDetail productId={productId} onAddToCart={onAddToCart} />);
  return { onAddToCart };
}

const sizeButton = (label: string) => screen.getByRole('button', { name: label });

describe('ProductDetail', () => {
  it('offers the sizes with stock, disables those at 0 and adds only once a size is chosen', async () => {
    const product = buildProduct({
      id: 5,
      name: 'Cotton Kurta',
      price: 1299.5,
      brand: 'Kapda',
      material: 'Khadi',
      color: 'Indigo, Rust',
      quantity: 0,
      sizeQuantities: { S: 0, M: 2 },
      description: 'Hand block printed.',
    });
    fakeApi({ 'GET /api/products/5': () => jsonResponse(product) });
    const { onAddToCart } = renderDetail();

    expect(await screen.findByRole('heading', { name: 'Cotton Kurta' })).toBeTruthy();
    expect(screen.getByText('₹1,299.50')).toBeTruthy();
    expect(screen.getByText('Khadi')).toBeTruthy();
    expect(screen.getByText('Hand block printed.')).toBeTruthy();
    expect(sizeButton('S').hasAttribute('disabled')).toBe(true);
    expect(screen.queryByRole('button', { name: 'XL' })).toBeNull();

    const add = screen.getByRole('button', { name: 'Add to Cart' });
    expect(add.hasAttribute('disabled')).toBe(true);
    fireEvent.click(sizeButton('M'));
    fireEvent.change(screen.getByLabelText('Colour'), { target: { value: 'Rust' } });
    fireEvent.click(add);
    expect(onAddToCart).toHaveBeenCalledWith(expect.objectContaining({ id: 5 }), 'M', 'Rust');
  });

  it('offers the generic sizes XS to XXL when no size has stock', async () => {
    fakeApi({ 'GET /api/products/5': () => jsonResponse(buildProduct({ id: 5, quantity: 3, sizeQuantities: {} })) });
    renderDetail();
    await screen.findByRole('button', { name: 'XS' });
    for (const label of ['XS', 'S', 'M', 'L', 'XL', 'XXL'])
      expect(sizeButton(label).hasAttribute('disabled')).toBe(false);
  });

  it("says 'Failed to load product' when the product cannot be loaded", async () => {
    fakeApi({ 'GET /api/products/5': () => jsonResponse({ message: 'Product not found' }, 404) });
    renderDetail();
    expect(await screen.findByText('Failed to load product')).toBeTruthy();
  });
});
