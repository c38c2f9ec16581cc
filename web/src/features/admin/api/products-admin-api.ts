import { api, parseAnswer } from '@/lib/api-client';
import { productSchema, type Product, type ProductId } from '@/types/api';
import { productFormData, type ProductPayload } from '../product-form';

const productPath = (id: ProductId) => `/products/${encodeURIComponent(String(id))}`;

// A refused save refetches nothing, so the form keeps what the admin typed (see invalidatesOnSuccess).
// A product change shows on the storefront's lists and detail pages and in the dashboard's stock figures.
const changed = (id?: ProductId) => [
  { type: 'Product' as const, id: 'LIST' },
  ...(id === undefined ? [] : [{ type: 'Product' as const, id: String(id) }]),
  'Stats' as const,
];

export const adminProductsApi = api.injectEndpoints({
  endpoints: (build) => ({
    createProduct: build.mutation<Product, { payload: ProductPayload; image: File | null }>({
      query: ({ payload, image }) => ({ url: '/products', method: 'POST', body: productFormData(payload, image) }),
      transformResponse: (raw: unknown) => parseAnswer(productSchema, raw),
      invalidatesTags: (_result, error) => (error ? [] : changed()),
    }),
    /** Multipart with a new image, JSON otherwise. */
    updateProduct: build.mutation<Product, { id: ProductId; payload: ProductPayload; image: File | null }>({
      query: ({ id, payload, image }) => ({
        url: productPath(id),
        method: 'PUT',
        body: image ? productFormData(payload, image) : payload,
      }),
      transformResponse: (raw: unknown) => parseAnswer(productSchema, raw),
      invalidatesTags: (_result, error, { id }) => (error ? [] : changed(id)),
    }),
    deleteProduct: build.mutation<unknown, ProductId>({
      query: (id) => ({ url: productPath(id), method: 'DELETE' }),
      invalidatesTags: (_result, _error, id) => changed(id),
    }),
    setProductDelisted: build.mutation<unknown, { id: ProductId; isDelisted: boolean }>({
      query: ({ id, isDelisted }) => ({ url: `${productPath(id)}/delist`, method: 'PUT', body: { isDelisted } }),
      invalidatesTags: (_result, _error, { id }) => changed(id),
    }),
  }),
});

export const {
  useCreateProductMutation,
  useUpdateProductMutation,
  useDeleteProductMutation,
  useSetProductDelistedMutation,
} = adminProductsApi;
