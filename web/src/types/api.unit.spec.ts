import { describe, expect, it } from 'vitest';
import { authResultSchema, parseProductList, productSchema, userSchema } from './api';

describe('productSchema', () => {
  it('reads numbers sent as strings, fills missing text and drops unknown fields', () => {
    const parsed = productSchema.safeParse({
      id: 7,
      name: 'Kurta',
      price: '1299.50',
      quantity: '4',
      description: null,
      image: '',
      sizeQuantities: '{"S":"2","M":1,"L":"x"}',
      extra: 'ignored',
    });
    expect(parsed).toEqual({
      success: true,
      data: {
        id: 7,
        name: 'Kurta',
        price: 1299.5,
        description: '',
        category: '',
        quantity: 4,
        size: '',
        color: '',
        brand: '',
        material: '',
        image: null,
        sizeQuantities: { S: 2, M: 1, L: 0 },
        isDelisted: false,
      },
    });
  });

  it('counts an unreadable quantity or size map as nothing', () => {
    const parsed = productSchema.safeParse({ id: 'p1', name: 'Tee', price: 10, quantity: 'many', sizeQuantities: '{' });
    expect(parsed.success && parsed.data).toMatchObject({ quantity: 0, sizeQuantities: {} });
  });

  it('refuses a product without an id, a name or a readable price', () => {
    expect(productSchema.safeParse({ name: 'Tee', price: 10 }).success).toBe(false);
    expect(productSchema.safeParse({ id: '', name: 'Tee', price: 10 }).success).toBe(false);
    expect(productSchema.safeParse({ id: 1, price: 10 }).success).toBe(false);
    expect(productSchema.safeParse({ id: 1, name: 'Tee', price: 'ten' }).success).toBe(false);
    expect(productSchema.safeParse({ id: 1, name: 'Tee', price: Infinity }).success).toBe(false);
    expect(productSchema.safeParse({ id: 1, name: 'Tee', price: 1, isDelisted: 'yes' }).success).toBe(false);
    expect(productSchema.safeParse(null).success).toBe(false);
  });

  it('drops unreadable entries from a list instead of failing it', () => {
    expect(parseProductList([{ id: 1, name: 'Tee', price: 5 }, { id: 2 }]).map((product) => product.id)).toEqual([1]);
    expect(parseProductList({ products: [] })).toEqual([]);
  });
});

describe('userSchema and authResultSchema', () => {
  it('fills missing fields and shows an unknown gender as not given', () => {
    expect(userSchema.safeParse({ id: 3, name: 'Asha', email: 'a@b.in', gender: 'Robot' })).toEqual({
      success: true,
      data: { id: 3, name: 'Asha', email: 'a@b.in', phone: null, dob: null, gender: null, isAdmin: false },
    });
    expect(userSchema.safeParse({ id: 3, name: 'Asha' }).success).toBe(false);
  });

  it('keeps a token only when there is one', () => {
    const user = { id: 1, name: 'A', email: 'a@b.in', isAdmin: true, gender: 'Female' };
    const withToken = authResultSchema.safeParse({ user, token: 'jwt' });
    expect(withToken.success && withToken.data).toMatchObject({
      token: 'jwt',
      user: { isAdmin: true, gender: 'Female' },
    });
    const withoutToken = authResultSchema.safeParse({ user, token: '' });
    expect(withoutToken.success && withoutToken.data.token).toBeNull();
  });
});
