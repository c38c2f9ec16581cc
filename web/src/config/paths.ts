// Every route path and the links that point at it live here, so a rename happens in one place.
import { orderConfirmationHref, resetPasswordHref, WEB_PAGES } from '@shop/shared/contracts/web-links';

type ProductListFilter = { category?: string | null; collection?: string | null };

function withQuery(path: string, query: Record<string, string | null | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value) params.set(key, value);
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

export const paths = {
  home: { path: '/', getHref: () => '/' },
  products: {
    path: '/products',
    getHref: (filter: ProductListFilter = {}) =>
      withQuery('/products', { category: filter.category, collection: filter.collection }),
  },
  product: {
    path: '/products/:productId',
    getHref: (productId: string | number) => `/products/${encodeURIComponent(String(productId))}`,
  },
  collections: { path: '/collections', getHref: () => '/collections' },
  cart: { path: '/cart', getHref: () => '/cart' },
  checkout: { path: '/checkout', getHref: () => '/checkout' },
  login: {
    path: '/login',
    getHref: (redirectTo?: string | null) => withQuery('/login', { redirectTo }),
  },
  signup: {
    path: '/signup',
    getHref: (redirectTo?: string | null) => withQuery('/signup', { redirectTo }),
  },
  contact: { path: '/contact', getHref: () => '/contact' },
  profile: { path: '/profile', getHref: () => '/profile' },
  myOrders: { path: '/my-orders', getHref: () => '/my-orders' },
  /**
   * An order's confirmation page, for guests too. The link's token rides in the fragment, which the browser never
   * sends to a server, so it stays out of access logs and Referer headers.
   */
  orderConfirmation: { path: WEB_PAGES.orderConfirmation, getHref: orderConfirmationHref },
  forgotPassword: { path: '/forgot-password', getHref: () => '/forgot-password' },
  /** Where a password-reset e-mail links to; its token rides in the fragment, like the confirmation's. */
  resetPassword: { path: WEB_PAGES.resetPassword, getHref: resetPasswordHref },
  admin: {
    root: { path: '/admin', getHref: () => '/admin' },
    products: {
      path: '/admin/products',
      getHref: (editProductId?: string | number | null) =>
        withQuery('/admin/products', { edit: editProductId == null ? null : String(editProductId) }),
    },
    orders: { path: '/admin/orders', getHref: () => '/admin/orders' },
    users: { path: '/admin/users', getHref: () => '/admin/users' },
    testimonials: { path: '/admin/testimonials', getHref: () => '/admin/testimonials' },
    collections: { path: '/admin/collections', getHref: () => '/admin/collections' },
    home: { path: '/admin/home', getHref: () => '/admin/home' },
    homepageSections: { path: '/admin/homepage-sections', getHref: () => '/admin/homepage-sections' },
    coupons: { path: '/admin/coupons', getHref: () => '/admin/coupons' },
    deliverySettings: { path: '/admin/delivery-settings', getHref: () => '/admin/delivery-settings' },
    deliveryAreas: { path: '/admin/delivery-areas', getHref: () => '/admin/delivery-areas' },
    refunds: { path: '/admin/refunds', getHref: () => '/admin/refunds' },
    mail: { path: '/admin/mail', getHref: () => '/admin/mail' },
  },
} as const;

/**
 * Returns `target` when it is a path inside this site (so a crafted ?redirectTo= cannot send the user
 * elsewhere), and null otherwise. Links back to the login, signup and password-reset pages are dropped as well.
 */
export function safeRedirectPath(target: string | null | undefined): string | null {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return null;
  const pathname = target.split(/[?#]/, 1)[0];
  const accountPages: readonly string[] = [
    paths.login.path,
    paths.signup.path,
    paths.forgotPassword.path,
    paths.resetPassword.path,
  ];
  if (accountPages.includes(pathname!)) return null;
  return target;
}
