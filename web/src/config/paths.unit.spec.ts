import { describe, expect, it } from 'vitest';
import { paths, safeRedirectPath } from './paths';

describe('paths', () => {
  it('builds shop links with their query', () => {
    expect(paths.products.getHref()).toBe('/products');
    expect(paths.products.getHref({ category: 'Women' })).toBe('/products?category=Women');
    expect(paths.login.getHref('/my-orders?page=2')).toBe('/login?redirectTo=%2Fmy-orders%3Fpage%3D2');
  });

  it("puts an order confirmation link's token in the fragment, never sent to a server", () => {
    expect(paths.orderConfirmation.getHref('order_Ab12.mac-_x')).toBe('/order-confirmation#order_Ab12.mac-_x');
  });
});

describe('safeRedirectPath', () => {
  it('keeps paths inside the site', () => {
    expect(safeRedirectPath('/profile')).toBe('/profile');
    expect(safeRedirectPath('/products?category=Men')).toBe('/products?category=Men');
  });

  it('drops other sites, missing values and the auth pages themselves', () => {
    expect(safeRedirectPath('https://evil.example')).toBeNull();
    expect(safeRedirectPath('//evil.example')).toBeNull();
    expect(safeRedirectPath('/\\evil.example')).toBeNull();
    expect(safeRedirectPath(null)).toBeNull();
    expect(safeRedirectPath('/login?redirectTo=/x')).toBeNull();
  });
});
