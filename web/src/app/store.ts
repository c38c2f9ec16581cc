import {
  combineSlices,
  configureStore,
  createListenerMiddleware,
  type Action,
  type ThunkAction,
} from '@reduxjs/toolkit';
import { notificationsSlice } from '@/components/notifications/notifications-slice';
import { cartSlice, saveCart } from '@/features/cart/cart-slice';
import { saveSession, sessionSlice } from '@/features/auth/session-slice';
import { api } from '@/lib/api-client';
import { createSessionExpiryMiddleware } from './session-expiry';

// Slices hold only what lives in the browser (session, cart, notifications); server data lives in `api`.
export const rootReducer = combineSlices(api, sessionSlice, cartSlice, notificationsSlice);

export type RootState = ReturnType<typeof rootReducer>;

// Reducers stay pure: the session and the cart are mirrored into browser storage after they change.
function createStorageMirror() {
  const listener = createListenerMiddleware<RootState>();
  listener.startListening({
    predicate: (_action, current, previous) => current.session !== previous.session,
    effect: (_action, { getState }) => saveSession(getState().session),
  });
  listener.startListening({
    predicate: (_action, current, previous) => current.cart.lines !== previous.cart.lines,
    effect: (_action, { getState }) => saveCart(getState().cart.lines),
  });
  return listener.middleware;
}

/** Builds a store; slices left out of `preloadedState` start from browser storage or their defaults. */
export function makeStore(preloadedState?: Partial<RootState>) {
  return configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware().prepend(createStorageMirror()).concat(api.middleware, createSessionExpiryMiddleware()),
  });
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
export type AppThunk<Result = void> = ThunkAction<Result, RootState, unknown, Action>;
