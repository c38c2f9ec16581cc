import { useState } from 'react';
import { createBrowserRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { RouteError } from '@/components/errors/route-error';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { RequireAuth } from './require-auth';
import type { PendingScreenHandle } from './routes/admin/pending-handle';
import { RootLayout } from './routes/root-layout';

function pendingAdminScreen(path: string, handle: PendingScreenHandle): RouteObject {
  return {
    path,
    handle,
    lazy: () => import('./routes/admin/pending').then((module) => ({ Component: module.AdminPendingRoute })),
  };
}

/**
 * The seed's route table. Pages load lazily inside the root layout (header, footer, notices), and one
 * error boundary under the layout catches page errors so the header and footer stay usable.
 */
export function createAppRoutes(): RouteObject[] {
  return [
    {
      path: paths.home.path,
      Component: RootLayout,
      HydrateFallback: Spinner,
      ErrorBoundary: RouteError,
      children: [
        {
          ErrorBoundary: RouteError,
          children: [
            { index: true, lazy: () => import('./routes/home').then((m) => ({ Component: m.HomeRoute })) },
            {
              path: paths.products.path,
              lazy: () => import('./routes/products').then((m) => ({ Component: m.ProductsRoute })),
            },
            {
              path: paths.product.path,
              lazy: () => import('./routes/product').then((m) => ({ Component: m.ProductRoute })),
            },
            {
              path: paths.collections.path,
              lazy: () => import('./routes/collections').then((m) => ({ Component: m.CollectionsRoute })),
            },
            { path: paths.cart.path, lazy: () => import('./routes/cart').then((m) => ({ Component: m.CartRoute })) },
            {
              path: paths.checkout.path,
              lazy: () => import('./routes/checkout').then((m) => ({ Component: m.CheckoutRoute })),
            },
            { path: paths.login.path, lazy: () => import('./routes/login').then((m) => ({ Component: m.LoginRoute })) },
            {
              path: paths.signup.path,
              lazy: () => import('./routes/signup').then((m) => ({ Component: m.SignupRoute })),
            },
            {
              path: paths.forgotPassword.path,
              lazy: () => import('./routes/forgot-password').then((m) => ({ Component: m.ForgotPasswordRoute })),
            },
            {
              // No sign-in: reached from the e-mailed link (the token in the fragment).
              path: paths.resetPassword.path,
              lazy: () => import('./routes/reset-password').then((m) => ({ Component: m.ResetPasswordRoute })),
            },
            {
              path: paths.contact.path,
              lazy: () => import('./routes/contact').then((m) => ({ Component: m.ContactRoute })),
            },
            {
              // No sign-in: a guest's order is reached by its link (the token in the fragment).
              path: paths.orderConfirmation.path,
              lazy: () => import('./routes/order-confirmation').then((m) => ({ Component: m.OrderConfirmationRoute })),
            },
            {
              Component: RequireAuth,
              children: [
                {
                  path: paths.profile.path,
                  lazy: () => import('./routes/profile').then((m) => ({ Component: m.ProfileRoute })),
                },
                {
                  path: paths.myOrders.path,
                  lazy: () => import('./routes/my-orders').then((m) => ({ Component: m.MyOrdersRoute })),
                },
                {
                  path: paths.admin.root.path,
                  children: [
                    {
                      index: true,
                      lazy: () =>
                        import('./routes/admin/dashboard').then((m) => ({ Component: m.AdminDashboardRoute })),
                    },
                    {
                      path: paths.admin.products.path,
                      lazy: () => import('./routes/admin/products').then((m) => ({ Component: m.AdminProductsRoute })),
                    },
                    {
                      path: paths.admin.orders.path,
                      lazy: () => import('./routes/admin/orders').then((m) => ({ Component: m.AdminOrdersRoute })),
                    },
                    {
                      path: paths.admin.users.path,
                      lazy: () => import('./routes/admin/users').then((m) => ({ Component: m.AdminUsersRoute })),
                    },
                    {
                      path: paths.admin.testimonials.path,
                      lazy: () =>
                        import('./routes/admin/testimonials').then((m) => ({ Component: m.AdminTestimonialsRoute })),
                    },
                    {
                      path: paths.admin.collections.path,
                      lazy: () =>
                        import('./routes/admin/collections').then((m) => ({ Component: m.AdminCollectionsRoute })),
                    },
                    {
                      path: paths.admin.home.path,
                      lazy: () => import('./routes/admin/home').then((m) => ({ Component: m.AdminHomeRoute })),
                    },
                    {
                      path: paths.admin.homepageSections.path,
                      lazy: () =>
                        import('./routes/admin/homepage-sections').then((m) => ({
                          Component: m.AdminHomepageSectionsRoute,
                        })),
                    },
                    {
                      path: paths.admin.coupons.path,
                      lazy: () => import('./routes/admin/coupons').then((m) => ({ Component: m.AdminCouponsRoute })),
                    },
                    {
                      path: paths.admin.deliverySettings.path,
                      lazy: () =>
                        import('./routes/admin/delivery-settings').then((m) => ({
                          Component: m.AdminDeliverySettingsRoute,
                        })),
                    },
                    {
                      path: paths.admin.refunds.path,
                      lazy: () => import('./routes/admin/refunds').then((m) => ({ Component: m.AdminRefundsRoute })),
                    },
                    {
                      path: paths.admin.mail.path,
                      lazy: () => import('./routes/admin/mail').then((m) => ({ Component: m.AdminMailRoute })),
                    },
                    pendingAdminScreen(paths.admin.deliveryAreas.path, {
                      title: 'Delivery Areas',
                      note: 'Delivery areas management is coming soon.',
                    }),
                    {
                      path: '*',
                      lazy: () => import('./routes/not-found').then((m) => ({ Component: m.NotFoundRoute })),
                    },
                  ],
                },
              ],
            },
            { path: '*', lazy: () => import('./routes/not-found').then((m) => ({ Component: m.NotFoundRoute })) },
          ],
        },
      ],
    },
  ];
}

export function AppRouter() {
  const [router] = useState(() => createBrowserRouter(createAppRoutes()));
  return <RouterProvider router={router} />;
}
