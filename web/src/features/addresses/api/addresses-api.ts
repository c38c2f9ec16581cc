import { api, parseAnswer } from '@/lib/api-client';
import { addressSchema, parseAddressList, type Address, type AddressInput } from '../address';

// Every change invalidates the whole list: adding, removing or making one default can move the default.
export const addressesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAddressBook: build.query<Address[], void>({
      query: () => '/addresses',
      transformResponse: (raw: unknown) => parseAddressList(raw),
      providesTags: [{ type: 'Address', id: 'LIST' }],
    }),
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

export const { useGetAddressBookQuery, useAddAddressMutation, useUpdateAddressMutation, useDeleteAddressMutation } =
  addressesApi;
