import { z } from 'zod';
import { api } from '@/lib/api-client';
import { parseProductList, userSchema, type Product, type User } from '@/types/api';

// The users list may come bare or wrapped as { users }; unreadable entries are dropped.
function parseUserList(raw: unknown): User[] {
  const list = z.object({ users: z.array(z.unknown()) }).safeParse(raw);
  const items = list.success ? list.data.users : Array.isArray(raw) ? raw : [];
  return items.flatMap((item) => {
    const parsed = userSchema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
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
