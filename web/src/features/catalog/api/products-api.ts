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
    /** Listed products by units sold, most first (newest first while nothing has sold). */
    getBestSellers: build.query<Product[], void>({
      query: () => ({ url: '/products', params: { sort: 'best-selling' } }),
      transformResponse: (raw: unknown) => parseProductList(raw),
      providesTags: (products = []) => [
        { type: 'Product', id: 'LIST' },
        ...products.map((product) => ({ type: 'Product' as const, id: String(product.id) })),
      ],
    }),
    /** A collection's listed products in the order they were added (GET /products?collection={id}). */
    getCollectionProducts: build.query<Product[], string>({
      query: (collectionId) => ({ url: '/products', params: { collection: collectionId } }),
      transformResponse: (raw: unknown) => parseProductList(raw),
      providesTags: (products = [], _error, collectionId) => [
        { type: 'Product', id: 'LIST' },
        { type: 'Collection', id: collectionId },
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

export const { useGetProductsQuery, useGetProductQuery, useGetBestSellersQuery, useGetCollectionProductsQuery } =
  productsApi;
