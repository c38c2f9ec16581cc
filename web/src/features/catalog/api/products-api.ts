import { api, parseAnswer } from '@/lib/api-client';
import { parseProductList, productSchema, type Product } from '@/types/api';

export const productsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getProducts: build.query<Product[], void>({
      query: () => '/products',
      transformResponse: (raw: unknown) => parseProductList(raw),
      providesTags: (products = []) => [
        { type: 'Product', id: 'LIST' },
        ...products.map((product) => ({ type: 'Product' as const, id: String(product.id) })),
      ],
    }),
    getProduct: build.query<Product, string>({
      query: (productId) => `/products/${encodeURIComponent(productId)}`,
      transformResponse: (raw: unknown) => parseAnswer(productSchema, raw),
      providesTags: (_product, _error, productId) => [{ type: 'Product', id: productId }],
    }),
  }),
});

export const { useGetProductsQuery, useGetProductQuery } = productsApi;
