import { z } from 'zod';
import { api, invalidatesOnSuccess, parseAnswer } from '@/lib/api-client';
import {
  authResultSchema,
  isPlainRecord,
  parser,
  readAuthResult,
  readUser,
  type AuthResult,
  type Gender,
  type User,
} from '@/types/api';
import { userUpdated } from '../session-slice';

export type LoginInput = { email: string; password: string };
export type RegisterInput = { name: string; email: string; phone: string; password: string };
export type ForgotPasswordInput = { email: string };
export type ResetPasswordInput = { token: string; password: string };
/** The server's answer to a reset request or a reset: a message to show. */
export type MessageAnswer = { message: string };
const messageAnswer = z.object({ message: z.string() });
export type ProfileInput = { name: string; email: string; phone: string; dob: string | null; gender: Gender | null };

/** The first reading that accepts the answer, else the last one's refusal. */
function firstOf<T>(...readers: Array<(raw: unknown) => T>): (raw: unknown) => T {
  return (raw) => {
    for (const read of readers.slice(0, -1)) {
      const parsed = parser(read).safeParse(raw);
      if (parsed.success) return parsed.data;
    }
    return readers[readers.length - 1]!(raw);
  };
}

// /auth/me may answer with the user itself or wrapped as { user }.
const currentUserAnswer = parser(
  firstOf(
    (raw) => readUser(isPlainRecord(raw) ? raw.user : undefined),
    (raw) => readUser(raw),
  ),
);

// A profile update may carry a fresh token (the old one names the old profile); keep it when it does.
const profileUpdateAnswer = parser(
  firstOf(readAuthResult, (raw): AuthResult => ({ user: readUser(raw), token: null })),
);

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<AuthResult, LoginInput>({
      query: (body) => ({ url: '/auth/login', method: 'POST', body }),
      transformResponse: (raw: unknown) => parseAnswer(authResultSchema, raw),
    }),
    register: build.mutation<AuthResult, RegisterInput>({
      query: (body) => ({ url: '/auth/register', method: 'POST', body }),
      transformResponse: (raw: unknown) => parseAnswer(authResultSchema, raw),
    }),
    forgotPassword: build.mutation<MessageAnswer, ForgotPasswordInput>({
      query: (body) => ({ url: '/auth/forgot-password', method: 'POST', body }),
      transformResponse: (raw: unknown) => parseAnswer(messageAnswer, raw),
    }),
    resetPassword: build.mutation<MessageAnswer, ResetPasswordInput>({
      query: (body) => ({ url: '/auth/reset-password', method: 'POST', body }),
      transformResponse: (raw: unknown) => parseAnswer(messageAnswer, raw),
    }),
    getCurrentUser: build.query<User, void>({
      query: () => '/auth/me',
      transformResponse: (raw: unknown) => parseAnswer(currentUserAnswer, raw),
      providesTags: ['CurrentUser'],
    }),
    updateCurrentUser: build.mutation<AuthResult, ProfileInput>({
      query: (body) => ({ url: '/auth/me', method: 'PUT', body }),
      transformResponse: (raw: unknown) => parseAnswer(profileUpdateAnswer, raw),
      invalidatesTags: invalidatesOnSuccess('CurrentUser'),
      async onQueryStarted(_input, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(userUpdated(data));
        } catch {
          // The caller shows 'Update failed'; the stored user stays as it was.
        }
      },
    }),
  }),
});

export const {
  useLoginMutation,
  useRegisterMutation,
  useForgotPasswordMutation,
  useResetPasswordMutation,
  useGetCurrentUserQuery,
  useUpdateCurrentUserMutation,
} = authApi;
