import { z } from 'zod';
import { CONTENT_TYPES, TEXT_SIZES, type ContentType, type TextSize } from '@shop/catalog/home-section-choices';
import { api, invalidatesOnSuccess } from '@/lib/api-client';
import { listIn, parseEach, parseProductList, type Product } from '@/types/api';
import { optionalText, textOrNull } from '@/types/fields';

const id = z.union([z.string(), z.number()]).transform(String);
/** Keeps the entries of a list (bare or as `{ [key]: [...] }`) that parse: one odd row does not blank a screen. */
function parseList<T>(schema: z.ZodType<T>, raw: unknown, key: string): T[] {
  return parseEach(schema, listIn(raw, key));
}

export const testimonialStatuses = ['pending', 'approved', 'rejected'] as const;
export type TestimonialStatus = (typeof testimonialStatuses)[number];

export const adminTestimonialSchema = z.object({
  id,
  rating: z.coerce.number().catch(5),
  text: optionalText,
  status: z.enum(testimonialStatuses).catch('pending'),
  createdAt: z.string().nullish(),
  User: z
    .object({ name: optionalText, email: optionalText })
    .nullish()
    .transform((v) => v ?? { name: '', email: '' }),
});
export type AdminTestimonial = z.infer<typeof adminTestimonialSchema>;

export const collectionSchema = z.object({
  id,
  name: z.string(),
  description: optionalText,
  image: textOrNull,
  Products: z
    .array(z.object({ id, name: optionalText, isDelisted: z.boolean().nullish() }))
    .nullish()
    .transform((v) => v ?? []),
});
export type Collection = z.infer<typeof collectionSchema>;

export const slideSchema = z.object({
  name: optionalText,
  price: z.coerce.number().catch(0),
  image: optionalText,
  lining: optionalText,
  size: optionalText,
  height: optionalText,
});
export type CarouselSlide = z.infer<typeof slideSchema>;

export type HomepageConfig = { carousel: CarouselSlide[]; sections?: unknown };

export const contentTypes = CONTENT_TYPES;
export type { ContentType, TextSize };
export const textSizes = TEXT_SIZES;

export const homeSectionSchema = z.object({
  id,
  name: z.string(),
  contentType: z.enum(contentTypes).catch('products'),
  contentIds: z.array(id).catch([]),
  textStyle: z.string().catch('default'),
  textColor: z.string().catch('#000000'),
  backgroundColor: z.string().catch('#FFFFFF'),
  textSize: z.preprocess((v) => (v === 'default' ? 'normal' : v), z.enum(textSizes)).catch('normal'),
  displayOrder: z.coerce.number().catch(0),
  isActive: z.boolean().catch(true),
});
export type HomeSection = z.infer<typeof homeSectionSchema>;
export type HomeSectionInput = Omit<HomeSection, 'id'>;

const listTag = <T extends 'Testimonial' | 'Collection' | 'HomeSection' | 'Product'>(type: T) => ({
  type,
  id: 'LIST' as const,
});

export const curationApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAdminTestimonials: build.query<AdminTestimonial[], void>({
      query: () => '/testimonials/admin/all',
      transformResponse: (raw: unknown) => parseList(adminTestimonialSchema, raw, 'testimonials'),
      providesTags: [listTag('Testimonial')],
    }),
    setTestimonialStatus: build.mutation<unknown, { id: string; status: TestimonialStatus }>({
      query: ({ id: testimonialId, status }) => ({
        url: `/testimonials/admin/${encodeURIComponent(testimonialId)}`,
        method: 'PUT',
        body: { status },
      }),
      invalidatesTags: ['Testimonial', 'Stats'],
    }),
    deleteTestimonial: build.mutation<unknown, string>({
      query: (testimonialId) => ({ url: `/testimonials/admin/${encodeURIComponent(testimonialId)}`, method: 'DELETE' }),
      invalidatesTags: ['Testimonial', 'Stats'],
    }),

    getCurationProducts: build.query<Product[], void>({
      query: () => '/products',
      transformResponse: (raw: unknown) => parseProductList(raw),
      providesTags: [listTag('Product')],
    }),

    getAdminCollections: build.query<Collection[], void>({
      query: () => '/collections',
      transformResponse: (raw: unknown) => parseList(collectionSchema, raw, 'collections'),
      providesTags: [listTag('Collection')],
    }),
    createCollection: build.mutation<unknown, FormData>({
      query: (body) => ({ url: '/collections', method: 'POST', body }),
      invalidatesTags: invalidatesOnSuccess('Collection'),
    }),
    updateCollectionImage: build.mutation<unknown, { id: string; body: FormData }>({
      query: ({ id: collectionId, body }) => ({
        url: `/collections/${encodeURIComponent(collectionId)}`,
        method: 'PUT',
        body,
      }),
      invalidatesTags: invalidatesOnSuccess('Collection', 'HomeSection'),
    }),
    deleteCollection: build.mutation<unknown, string>({
      query: (collectionId) => ({ url: `/collections/${encodeURIComponent(collectionId)}`, method: 'DELETE' }),
      invalidatesTags: ['Collection', 'HomeSection'],
    }),
    addCollectionProduct: build.mutation<unknown, { id: string; productId: string }>({
      query: ({ id: collectionId, productId }) => ({
        url: `/collections/${encodeURIComponent(collectionId)}/products`,
        method: 'POST',
        body: { productId },
      }),
      invalidatesTags: ['Collection'],
    }),
    removeCollectionProduct: build.mutation<unknown, { id: string; productId: string }>({
      query: ({ id: collectionId, productId }) => ({
        url: `/collections/${encodeURIComponent(collectionId)}/products`,
        method: 'DELETE',
        body: { productId },
      }),
      invalidatesTags: ['Collection'],
    }),

    getAdminHomepage: build.query<HomepageConfig, void>({
      query: () => '/home',
      transformResponse: (raw: unknown) => {
        const record = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
        return {
          carousel: parseList(slideSchema, record.carousel, 'carousel'),
          ...('sections' in record ? { sections: record.sections } : {}),
        };
      },
      providesTags: ['Homepage'],
    }),
    saveHomepage: build.mutation<unknown, FormData>({
      query: (body) => ({ url: '/home', method: 'PUT', body }),
      invalidatesTags: invalidatesOnSuccess('Homepage'),
    }),

    getAdminHomeSections: build.query<HomeSection[], void>({
      query: () => ({ url: '/home/sections', params: { all: true } }),
      transformResponse: (raw: unknown) =>
        parseList(homeSectionSchema, raw, 'sections').sort((a, b) => a.displayOrder - b.displayOrder),
      providesTags: [listTag('HomeSection')],
    }),
    createHomeSection: build.mutation<unknown, HomeSectionInput>({
      query: (body) => ({ url: '/home/sections', method: 'POST', body }),
      invalidatesTags: invalidatesOnSuccess('HomeSection'),
    }),
    updateHomeSection: build.mutation<unknown, { id: string; input: HomeSectionInput }>({
      query: ({ id: sectionId, input }) => ({
        url: `/home/sections/${encodeURIComponent(sectionId)}`,
        method: 'PUT',
        body: input,
      }),
      invalidatesTags: invalidatesOnSuccess('HomeSection'),
    }),
    deleteHomeSection: build.mutation<unknown, string>({
      query: (sectionId) => ({ url: `/home/sections/${encodeURIComponent(sectionId)}`, method: 'DELETE' }),
      invalidatesTags: ['HomeSection'],
    }),
  }),
});

export const {
  useGetAdminTestimonialsQuery,
  useSetTestimonialStatusMutation,
  useDeleteTestimonialMutation,
  useGetCurationProductsQuery,
  useGetAdminCollectionsQuery,
  useCreateCollectionMutation,
  useUpdateCollectionImageMutation,
  useDeleteCollectionMutation,
  useAddCollectionProductMutation,
  useRemoveCollectionProductMutation,
  useGetAdminHomepageQuery,
  useSaveHomepageMutation,
  useGetAdminHomeSectionsQuery,
  useCreateHomeSectionMutation,
  useUpdateHomeSectionMutation,
  useDeleteHomeSectionMutation,
} = curationApi;
