import { api } from '@/lib/api-client';
import {
  parseCarousel,
  parseCollections,
  parseHomeSections,
  parseSectionContent,
  parseTestimonials,
  type CarouselSlide,
  type Collection,
  type HomeSection,
  type SectionContent,
  type Testimonial,
} from '../home-data';
import type { TestimonialDraft } from '../testimonial-rules';

/** The storefront's curation reads (public) and the shopper's testimonial submission. */
export const homeApi = api.injectEndpoints({
  endpoints: (build) => ({
    getHomepage: build.query<{ carousel: CarouselSlide[] }, void>({
      query: () => '/home',
      transformResponse: (raw: unknown) => ({ carousel: parseCarousel(raw) }),
      providesTags: ['Homepage'],
    }),
    getCollections: build.query<Collection[], void>({
      query: () => '/collections',
      transformResponse: (raw: unknown) => parseCollections(raw),
      providesTags: [{ type: 'Collection', id: 'LIST' }],
    }),
    getTestimonials: build.query<Testimonial[], void>({
      query: () => '/testimonials',
      transformResponse: (raw: unknown) => parseTestimonials(raw),
      providesTags: [{ type: 'Testimonial', id: 'LIST' }],
    }),
    submitTestimonial: build.mutation<{ message: string }, TestimonialDraft>({
      query: (body) => ({ url: '/testimonials', method: 'POST', body }),
      transformResponse: (raw: unknown) => ({
        message:
          typeof raw === 'object' && raw !== null && 'message' in raw && typeof raw.message === 'string'
            ? raw.message
            : '',
      }),
      // A new review is pending: the public list only changes once an admin approves it.
      invalidatesTags: ['Stats'],
    }),
    getHomeSections: build.query<HomeSection[], void>({
      query: () => '/home/sections',
      transformResponse: (raw: unknown) => parseHomeSections(raw),
      providesTags: [{ type: 'HomeSection', id: 'LIST' }],
    }),
    getHomeSectionContent: build.query<SectionContent, Pick<HomeSection, 'id' | 'contentType'>>({
      query: ({ id }) => `/home/sections/${encodeURIComponent(String(id))}/content`,
      transformResponse: (raw: unknown, _meta, { contentType }) => parseSectionContent(raw, contentType),
      // Content joins products and collections, so a change to either refreshes it.
      providesTags: (_content, _error, { id }) => [
        { type: 'HomeSection', id: String(id) },
        { type: 'Product', id: 'LIST' },
        { type: 'Collection', id: 'LIST' },
      ],
    }),
  }),
});

export const {
  useGetHomepageQuery,
  useGetCollectionsQuery,
  useGetTestimonialsQuery,
  useSubmitTestimonialMutation,
  useGetHomeSectionsQuery,
  useGetHomeSectionContentQuery,
} = homeApi;
