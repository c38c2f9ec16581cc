import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { readStoredJson, readStoredText, storageKeys, writeStoredJson, writeStoredText } from '@/lib/storage';
import { userSchema, type User } from '@/types/api';

export type SessionState = { user: User | null; token: string | null };

/** The session kept in browser storage under the keys user and token; anything unreadable means logged out. */
export function readStoredSession(): SessionState {
  const parsed = userSchema.safeParse(readStoredJson(storageKeys.user));
  if (!parsed.success) return { user: null, token: null };
  return { user: parsed.data, token: readStoredText(storageKeys.token) };
}

/** Mirrors the session into browser storage; a logged-out session removes both keys. */
export function saveSession(session: SessionState): void {
  if (session.user) writeStoredJson(storageKeys.user, session.user);
  else writeStoredText(storageKeys.user, null);
  writeStoredText(storageKeys.token, session.user ? session.token : null);
}

export const sessionSlice = createSlice({
  name: 'session',
  initialState: readStoredSession,
  reducers: {
    /** Logged in or registered: the token is kept only when the answer carried one. */
    sessionStarted(_state, action: PayloadAction<{ user: User; token: string | null }>) {
      return { user: action.payload.user, token: action.payload.token };
    },
    /** The profile changed; a fresh token replaces the old one when the answer carried one. */
    userUpdated(state, action: PayloadAction<{ user: User; token: string | null }>) {
      if (!state.user) return;
      state.user = action.payload.user;
      if (action.payload.token) state.token = action.payload.token;
    },
    loggedOut() {
      return { user: null, token: null };
    },
  },
  selectors: {
    selectCurrentUser: (session) => session.user,
    selectIsLoggedIn: (session) => session.user !== null,
    selectIsAdmin: (session) => session.user?.isAdmin === true,
  },
});

export const { sessionStarted, userUpdated, loggedOut } = sessionSlice.actions;
export const { selectCurrentUser, selectIsLoggedIn, selectIsAdmin } = sessionSlice.selectors;
