import { parseAddressList, type Address } from '@/types/address';
import { api } from './api-client';

// The signed-in user's saved addresses (GET /addresses), shared by the address book and checkout's picker.

export const addressesQueryApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAddressBook: build.query<Address[], void>({
      query: () => '/addresses',
      transformResponse: (raw: unknown) => parseAddressList(raw),
      providesTags: [{ type: 'Address', id: 'LIST' }],
    }),
  }),
});

export const { useGetAddressBookQuery } = addressesQueryApi;
