import { createApi, fetchBaseQuery, type BaseQueryFn, type FetchArgs } from '@reduxjs/toolkit/query/react';
import { env } from '@/config/env';
import { readStoredText, storageKeys } from '@/lib/storage';

/** The one error shape every endpoint rejects with; `message` is fit to show a user. */
export type ApiError = {
  status: number | 'FETCH_ERROR' | 'PARSING_ERROR' | 'TIMEOUT_ERROR' | 'CUSTOM_ERROR';
  message: string;
  /** The JSON body's `title`, when the server gave one (e.g. a 409 'Size not available' refusal). */
  title?: string;
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * The message for a non-OK answer: the server's JSON `message` field, else the body text, else
 * 'Request failed with {status}'. An HTML error page (from a proxy, say) is not a message for a user.
 */
export function messageFromErrorBody(status: number, bodyText: string): string {
  const text = bodyText.trim();
  if (text && !text.startsWith('<')) {
    try {
      const body: unknown = JSON.parse(text);
      if (isRecord(body) && typeof body.message === 'string' && body.message.trim()) return body.message;
    } catch {
      // Not JSON: the text itself is the message.
    }
    return text;
  }
  return `Request failed with ${status}`;
}

/** The JSON error body's `title` field, if any (refusals the shopper sees with a title and a message). */
export function titleFromErrorBody(bodyText: string): string | undefined {
  try {
    const body: unknown = JSON.parse(bodyText);
    if (isRecord(body) && typeof body.title === 'string' && body.title.trim()) return body.title;
  } catch {
    // Not JSON: no title.
  }
  return undefined;
}

const rawBaseQuery = fetchBaseQuery({
  baseUrl: env.apiUrl,
  prepareHeaders: (headers) => {
    const token = readStoredText(storageKeys.token);
    if (token) headers.set('Authorization', `Bearer ${token}`);
    return headers;
  },
  // Read every body as text so an error body can be used verbatim and a success body parsed below.
  responseHandler: 'text',
});

/** fetchBaseQuery with the token attached and every failure turned into an ApiError. */
export const apiBaseQuery: BaseQueryFn<string | FetchArgs, unknown, ApiError> = async (args, api, extraOptions) => {
  const result = await rawBaseQuery(args, api, extraOptions as object);
  const { error, meta } = result;
  if (error) {
    if (typeof error.status === 'number') {
      const body = typeof error.data === 'string' ? error.data : '';
      const title = titleFromErrorBody(body);
      return {
        error: { status: error.status, message: messageFromErrorBody(error.status, body), ...(title ? { title } : {}) },
        meta,
      };
    }
    if (error.status === 'PARSING_ERROR') {
      return {
        error: { status: error.originalStatus, message: messageFromErrorBody(error.originalStatus, error.data) },
        meta,
      };
    }
    if (error.status === 'TIMEOUT_ERROR')
      return { error: { status: error.status, message: 'The server took too long to answer' }, meta };
    return { error: { status: error.status, message: 'Could not reach the server' }, meta };
  }
  const text = typeof result.data === 'string' ? result.data : '';
  if (!text.trim()) return { data: null, meta };
  try {
    return { data: JSON.parse(text) as unknown, meta };
  } catch {
    return { error: { status: 'PARSING_ERROR', message: 'The server sent an unreadable answer' }, meta };
  }
};

/** The single RTK Query slice; features add their endpoints with api.injectEndpoints. */
const tagTypes = [
  'Product',
  'CurrentUser',
  'User',
  'Order',
  'Address',
  'Coupon',
  'DeliverySettings',
  'Collection',
  'Homepage',
  'HomeSection',
  'Testimonial',
  'Stats',
] as const;
export type TagType = (typeof tagTypes)[number];

export const api = createApi({
  reducerPath: 'api',
  baseQuery: apiBaseQuery,
  tagTypes,
  endpoints: () => ({}),
});

/**
 * A mutation's `invalidatesTags` that refetches only after a success. RTK Query also invalidates after a
 * refused mutation; the refetch then restarts a form keyed by its saved data, and what the admin typed is lost.
 */
export const invalidatesOnSuccess =
  (...tags: Array<TagType | { type: TagType; id: string }>) =>
  (_result: unknown, error: unknown) =>
    error ? [] : tags;

/**
 * Parses an answer with a schema for use in transformResponse. A mismatch throws an Error whose message
 * is fit for a user (the schema details go to the console for developers).
 */
export function parseAnswer<T>(
  schema: { safeParse(raw: unknown): { success: true; data: T } | { success: false; error: unknown } },
  raw: unknown,
): T {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  console.error('Unexpected API answer', parsed.error);
  throw new Error('The server sent an unexpected answer');
}

/** The message to show for a failed call or mutation (`unwrap()` rejection), or `fallback`. */
export function errorMessage(error: unknown, fallback: string): string {
  if (isRecord(error) && typeof error.message === 'string' && error.message.trim()) return error.message;
  return fallback;
}
