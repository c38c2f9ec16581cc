import { describe, expect, it } from 'vitest';
import { buildProduct } from '@/testing/data';
import {
  addSizeLabel,
  buildProductPayload,
  emptyProductForm,
  FILL_REQUIRED_MESSAGE,
  isImageFile,
  productFormData,
  productToForm,
  toSizeQuantity,
} from './product-form';

const filled = () => ({ ...emptyProductForm(), name: 'Kurta', price: '1299.50', quantity: '4' });

describe('the product form', () => {
  it('starts with sizes S, M, L, XL at 0', () => {
    expect(emptyProductForm().sizes).toEqual([
      { label: 'S', quantity: 0 },
      { label: 'M', quantity: 0 },
      { label: 'L', quantity: 0 },
      { label: 'XL', quantity: 0 },
    ]);
  });

  it('adds a size label only when it is new (case-insensitive) and not blank', () => {
    const sizes = emptyProductForm().sizes;
    expect(addSizeLabel(sizes, ' XXL ').sizes.at(-1)).toEqual({ label: 'XXL', quantity: 0 });
    expect(addSizeLabel(sizes, 'm')).toEqual({ sizes, added: false });
    expect(addSizeLabel(sizes, '  ').added).toBe(false);
  });

  it('keeps per-size quantities whole numbers of at least 0', () => {
    expect(toSizeQuantity('3')).toBe(3);
    expect(toSizeQuantity('2.7')).toBe(2);
    expect(toSizeQuantity('-4')).toBe(0);
    expect(toSizeQuantity('')).toBe(0);
    expect(toSizeQuantity('abc')).toBe(0);
  });

  it("refuses a missing name, price or quantity with 'Please fill name, price, and quantity'", () => {
    expect(buildProductPayload({ ...filled(), name: ' ' })).toEqual({ ok: false, message: FILL_REQUIRED_MESSAGE });
    expect(buildProductPayload({ ...filled(), price: 'x' })).toEqual({ ok: false, message: FILL_REQUIRED_MESSAGE });
    expect(buildProductPayload({ ...filled(), quantity: '' })).toEqual({ ok: false, message: FILL_REQUIRED_MESSAGE });
  });

  it('sends numbers and the size map; a product with units in its sizes has their sum as quantity', () => {
    const plain = buildProductPayload(filled());
    expect(plain).toMatchObject({ ok: true, payload: { name: 'Kurta', price: 1299.5, quantity: 4 } });
    const bySize = buildProductPayload({
      ...filled(),
      quantity: '',
      sizes: [
        { label: 'S', quantity: 2 },
        { label: 'M', quantity: 3 },
      ],
    });
    expect(bySize).toMatchObject({ ok: true, payload: { quantity: 5, sizeQuantities: { S: 2, M: 3 } } });
  });

  it('builds the multipart body with sizeQuantities as JSON and the image file', () => {
    const built = buildProductPayload(filled());
    if (!built.ok) throw new Error('expected a payload');
    const image = new File(['x'], 'kurta.png', { type: 'image/png' });
    const form = productFormData(built.payload, image);
    expect(form.get('name')).toBe('Kurta');
    expect(form.get('price')).toBe('1299.5');
    expect(JSON.parse(String(form.get('sizeQuantities')))).toEqual({ S: 0, M: 0, L: 0, XL: 0 });
    expect((form.get('image') as File).name).toBe('kurta.png');
  });

  it('fills edit mode from the product, with its own sizes or the default map', () => {
    expect(productToForm(buildProduct({ name: 'Saree', sizeQuantities: { Free: 3 } })).sizes).toEqual([
      { label: 'Free', quantity: 3 },
    ]);
    expect(productToForm(buildProduct({ price: 450.5 })).sizes.map((row) => row.label)).toEqual(['S', 'M', 'L', 'XL']);
    expect(productToForm(buildProduct({ price: 450.5 })).price).toBe('450.5');
  });

  it('takes images only', () => {
    expect(isImageFile({ type: 'image/jpeg' })).toBe(true);
    expect(isImageFile({ type: 'application/pdf' })).toBe(false);
  });
});
