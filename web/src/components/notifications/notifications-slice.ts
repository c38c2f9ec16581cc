import { createSlice, nanoid, type PayloadAction } from '@reduxjs/toolkit';
import { errorMessage } from '@/lib/api-client';

export type NotificationType = 'success' | 'error' | 'info';

export type Notification = {
  id: string;
  type: NotificationType;
  title: string;
  message?: string;
  /** Milliseconds before it closes itself; 0 or less keeps it until closed. */
  durationMs: number;
};

export type NotificationRequest = {
  type: NotificationType;
  title?: string;
  message?: string;
  durationMs?: number;
};

export const DEFAULT_NOTIFICATION_DURATION_MS = 3500;

const defaultTitles: Record<NotificationType, string> = { success: 'Success', error: 'Error', info: 'Notice' };

// Older notices give way so a burst of actions cannot cover the page.
const MAX_VISIBLE = 5;

type NotificationsState = { items: Notification[] };

const initialState: NotificationsState = { items: [] };

export const notificationsSlice = createSlice({
  name: 'notifications',
  initialState,
  reducers: {
    notificationShown: {
      reducer(state, action: PayloadAction<Notification>) {
        state.items.push(action.payload);
        if (state.items.length > MAX_VISIBLE) state.items.splice(0, state.items.length - MAX_VISIBLE);
      },
      prepare(request: NotificationRequest) {
        return {
          payload: {
            id: nanoid(),
            type: request.type,
            title: request.title ?? defaultTitles[request.type],
            message: request.message,
            durationMs: request.durationMs ?? DEFAULT_NOTIFICATION_DURATION_MS,
          },
        };
      },
    },
    notificationDismissed(state, action: PayloadAction<string>) {
      state.items = state.items.filter((item) => item.id !== action.payload);
    },
  },
  selectors: {
    selectNotifications: (state) => state.items,
  },
});

export const { notificationShown, notificationDismissed } = notificationsSlice.actions;
export const { selectNotifications } = notificationsSlice.selectors;

/** The error notice of a failed request: the title, and the server's message (the title again when it sent none). */
export const failureShown = (title: string, error: unknown) =>
  notificationShown({ type: 'error', title, message: errorMessage(error, title) });
