import { api } from '@/lib/api-client';
import { listIn, parseEach, parseProductList, userSchema, type Product, type User } from '@/types/api';

// The users list may come bare or wrapped as { users }; unreadable entries are dropped.
function parseUserList(raw: unknown): User[] {
  return parseEach(userSchema, listIn(raw, 'users'));
}

export const adminApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAdminProducts: build.query<Product[], void>({
      query: () => ({ url: '/products', params: { includeDelisted: true } }),
      transformResponse: (raw: unknown) => parseProductList(raw),
      providesTags: [{ type: 'Product', id: 'LIST' }],
    }),
    getAdminUsers: build.query<User[], void>({
      query: () => '/auth/admin/users',
      transformResponse: (raw: unknown) => parseUserList(raw),
      providesTags: [{ type: 'User', id: 'LIST' }],
    }),
  }),
});

export const { useGetAdminProductsQuery, useGetAdminUsersQuery } = adminApi;
