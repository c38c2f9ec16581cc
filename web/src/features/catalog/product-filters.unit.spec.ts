import { describe, expect, it } from 'vitest';
import { buildProduct } from '@/testing/data';
import { filterProducts, listCategories, resolveCategory } from './product-filters';

describe('listCategories', () => {
  it('lists distinct trimmed categories alphabetically, without blanks', () => {
    const products = [' Women', 'Men', 'Kids ', 'Men', '', '  '].map((category) => buildProduct({ category }));
    expect(listCategories(products)).toEqual(['Kids', 'Men', 'Women']);
  });
});

describe('resolveCategory', () => {
  it('selects the listed category a query names, ignoring case and spaces', () => {
    expect(resolveCategory(' women ', ['Men', 'Women'])).toBe('Women');
  });

  it('keeps an unlisted category and means all products when absent', () => {
    expect(resolveCategory('Kids', ['Men'])).toBe('Kids');
    expect(resolveCategory(null, ['Men'])).toBeNull();
    expect(resolveCategory('  ', ['Men'])).toBeNull();
  });
});

describe('filterProducts', () => {
  const kurta = buildProduct({ name: 'Cotton Kurta', description: 'Hand block print', category: 'Men' });
  const saree = buildProduct({ name: 'Silk Saree', description: 'Banarasi weave, festive', category: ' Women ' });
  const tee = buildProduct({ name: 'Graphic Tee', description: 'Soft cotton jersey', category: 'Kids' });
  const all = [kurta, saree, tee];

  it('matches the search in name or description, any case', () => {
    expect(filterProducts(all, { search: 'COTTON', category: null })).toEqual([kurta, tee]);
    expect(filterProducts(all, { search: 'festive', category: null })).toEqual([saree]);
  });

  it('keeps only the chosen category, comparing trimmed names', () => {
    expect(filterProducts(all, { search: '', category: 'Women' })).toEqual([saree]);
  });

  it('combines search and category', () => {
    expect(filterProducts(all, { search: 'cotton', category: 'Kids' })).toEqual([tee]);
    expect(filterProducts(all, { search: 'silk', category: 'Men' })).toEqual([]);
  });
});
