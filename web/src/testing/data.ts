import type { Product, User } from '@/types/api';

let nextId = 1;

/** A listed, in-stock product; override what the test is about. */
export function buildProduct(overrides: Partial<Product> = {}): Product {
  const id = nextId++;
  return {
    id,
    name: `Product ${id}`,
    price: 999,
    description: '',
    category: 'Men',
    quantity: 10,
    size: '',
    color: '',
    brand: 'Kapda',
    material: 'Cotton',
    image: null,
    sizeQuantities: {},
    isDelisted: false,
    ...overrides,
  };
}

export function buildUser(overrides: Partial<User> = {}): User {
  return {
    id: 1,
    name: 'Asha Rao',
    email: 'asha@example.in',
    phone: '+91 90000 00000',
    dob: null,
    gender: null,
    isAdmin: false,
    ...overrides,
  };
}
