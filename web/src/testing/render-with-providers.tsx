import { cleanup, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { afterEach, vi } from 'vitest';
import { createAppRoutes } from '@/app/router';
import { makeStore, type RootState } from '@/app/store';

// The web project runs without vitest globals, so Testing Library cannot register its own cleanup.
// Importing this helper registers it, and clears what a test may leave in browser storage or globals.
afterEach(() => {
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

// jsdom does not implement scrolling; ScrollRestoration calls it on every navigation.
window.scrollTo = () => undefined;

type RenderOptions = {
  /** Slices to start from; the rest start from browser storage or their defaults. */
  preloadedState?: Partial<RootState>;
  /** The URL the memory router starts at. */
  route?: string;
  /** The route pattern `ui` is mounted at, so it can read params (e.g. '/products/:productId'). */
  path?: string;
};

function renderRouter(routes: RouteObject[], { preloadedState, route = '/' }: RenderOptions) {
  const store = makeStore(preloadedState);
  const router = createMemoryRouter(routes, { initialEntries: [route] });
  const result = render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { ...result, store, router };
}

/** Renders `ui` inside a fresh store and a memory router at `route`; other URLs render nothing. */
export function renderWithProviders(ui: ReactElement, options: RenderOptions = {}) {
  const path = options.path ?? '*';
  const routes: RouteObject[] = [{ path, element: ui }];
  if (path !== '*') routes.push({ path: '*', element: null });
  return renderRouter(routes, options);
}

/** Renders the whole app (layout, guard, lazy pages) at `route`. */
export function renderApp(options: RenderOptions = {}) {
  return renderRouter(createAppRoutes(), options);
}
