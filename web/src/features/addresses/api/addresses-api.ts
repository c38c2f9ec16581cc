import { api, parseAnswer } from '@/lib/api-client';
import { addressSchema, type Address } from '@/types/address';
import type { AddressInput } from '../address';

// Changes to the saved addresses (the list itself: lib/addresses-api). Every change invalidates the whole
// list: adding, removing or making one default can move the default.
export const addressesApi = api.injectEndpoints({
  endpoints: (build) => ({
    addAddress: build.mutation<Address, AddressInput>({
      query: (body) => ({ url: '/addresses', method: 'POST', body }),
      transformResponse: (raw: unknown) => parseAnswer(addressSchema, raw),
      invalidatesTags: [{ type: 'Address', id: 'LIST' }],
    }),
    updateAddress: build.mutation<Address, { id: string; changes: Partial<AddressInput> }>({
      query: ({ id, changes }) => ({ url: `/addresses/${encodeURIComponent(id)}`, method: 'PUT', body: changes }),
      transformResponse: (raw: unknown) => parseAnswer(addressSchema, raw),
      invalidatesTags: [{ type: 'Address', id: 'LIST' }],
    }),
    deleteAddress: build.mutation<void, string>({
      query: (id) => ({ url: `/addresses/${encodeURIComponent(id)}`, method: 'DELETE' }),
      transformResponse: () => undefined,
      invalidatesTags: [{ type: 'Address', id: 'LIST' }],
    }),
  }),
});

export const { useAddAddressMutation, useUpdateAddressMutation, useDeleteAddressMutation } = addressesApi;
