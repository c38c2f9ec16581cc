import { useState, type ReactNode } from 'react';
import { Provider } from 'react-redux';
import { makeStore, type AppStore } from './store';

/** App-wide providers; a store can be passed in (tests), otherwise one is made from browser storage. */
export function AppProvider({ children, store }: { children: ReactNode; store?: AppStore }) {
  const [appStore] = useState(() => store ?? makeStore());
  return <Provider store={appStore}>{children}</Provider>;
}
