import { z } from 'zod';
import { api, parseAnswer } from '@/lib/api-client';
import { authResultSchema, userSchema, type AuthResult, type Gender, type User } from '@/types/api';
import { userUpdated } from '../session-slice';

export type LoginInput = { email: string; password: string };
export type RegisterInput = { name: string; email: string; phone: string; password: string };
export type ProfileInput = { name: string; email: string; phone: string; dob: string | null; gender: Gender | null };

// /auth/me may answer with the user itself or wrapped as { user }.
const currentUserAnswer = z.union([z.object({ user: userSchema }).transform((answer) => answer.user), userSchema]);

// A profile update may carry a fresh token (the old one names the old profile); keep it when it does.
const profileUpdateAnswer = z.union([
  authResultSchema,
  userSchema.transform((user): AuthResult => ({ user, token: null })),
]);

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
    getCurrentUser: build.query<User, void>({
      query: () => '/auth/me',
      transformResponse: (raw: unknown) => parseAnswer(currentUserAnswer, raw),
      providesTags: ['CurrentUser'],
    }),
    updateCurrentUser: build.mutation<AuthResult, ProfileInput>({
      query: (body) => ({ url: '/auth/me', method: 'PUT', body }),
      transformResponse: (raw: unknown) => parseAnswer(profileUpdateAnswer, raw),
      invalidatesTags: ['CurrentUser'],
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

export const { useLoginMutation, useRegisterMutation, useGetCurrentUserQuery, useUpdateCurrentUserMutation } = authApi;
