import { configure, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildProduct } from '@/testing/data';
import { fakeApi, jsonResponse, requestsOf } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render-with-providers';
import { CartPage } from './cart-page';

configure({ asyncUtilTimeout: 5000 });

const {
  quantity: _stock,
  size: _sizes,
  color: _colours,
  ...fields
} = buildProduct({ id: 3, name: 'Silk Dupatta', price: 749.5 });
const line = { ...fields, quantity: 2, size: null, color: null };

function renderCart() {
  window.localStorage.setItem('cart', JSON.stringify([line]));
  renderWithProviders(<CartPage />, { route: '/cart' });
  return screen.findByRole('complementary', { name: 'Order summary' });
}

const row = (summary: HTMLElement, label: string) => within(summary).getByText(label).parentElement?.textContent;

describe('cart page', () => {
  it('shows the delivery charge the server quotes for the subtotal, and the total', async () => {
    const fetchMock = fakeApi({
      'POST /api/delivery/calculate': () =>
        jsonResponse({ deliveryCharge: 40, shippingCharge: 59, isFreeDelivery: false }),
    });
    const summary = await renderCart();
    // The two charges named as checkout names them, not one lumped 'Delivery'.
    expect(await within(summary).findByText('₹59.00')).toBeTruthy();
    expect(row(summary, 'Shipping')).toBe('Shipping₹59.00');
    expect(row(summary, 'Delivery')).toBe('Delivery₹40.00');
    expect(row(summary, 'Subtotal')).toBe('Subtotal₹1,499.00');
    expect(row(summary, 'Total')).toBe('Total₹1,598.00');
    const [request] = requestsOf(fetchMock);
    expect(await request!.json()).toEqual({ orderTotal: 1499 });
  });

  it("says 'Free' when nothing is charged", async () => {
    fakeApi({
      'POST /api/delivery/calculate': () =>
        jsonResponse({ deliveryCharge: 0, shippingCharge: 0, isFreeDelivery: true }),
    });
    const summary = await renderCart();
    await within(summary).findAllByText('Free');
    expect(row(summary, 'Shipping')).toBe('ShippingFree');
    expect(row(summary, 'Delivery')).toBe('DeliveryFree');
    expect(row(summary, 'Total')).toBe('Total₹1,499.00');
  });

  it('falls back to free delivery when the lookup fails', async () => {
    fakeApi({ 'POST /api/delivery/calculate': () => jsonResponse({ message: 'Service unavailable' }, 503) });
    const summary = await renderCart();
    expect(await within(summary).findAllByText('Free')).toHaveLength(2);
    expect(row(summary, 'Total')).toBe('Total₹1,499.00');
  });
});
