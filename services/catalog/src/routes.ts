import { z } from 'zod';
import { route, type RouteSpec } from '@shop/shared/http/route-table';
import {
  CreateBody as ProductCreateBody,
  DelistBody,
  IdParam as ProductIdParam,
  ListQuery as ProductListQuery,
  UpdateBody as ProductUpdateBody,
  imageRef,
} from './api.ts';
import {
  CreateBody as CollectionCreateBody,
  IdParam as CollectionIdParam,
  ProductRef,
  UpdateBody as CollectionUpdateBody,
} from './collections-api.ts';
import {
  CreateBody as SectionCreateBody,
  IdParam as SectionIdParam,
  ListQuery as SectionListQuery,
  UpdateBody as SectionUpdateBody,
} from './home-sections-api.ts';
import { Slide } from './homepage-api.ts';
import { MAX_SLIDES } from './homepage/events.ts';
import { ReserveBody, SettleBody } from './inventory/inventory-api.ts';
import { CATALOG_HISTORY_ROUTES } from './history/history-api.ts';

const service = 'catalog';

/** The form's `image` part: an uploaded file, or (as text) an image URL. */
const imageFile = z.union([z.file(), imageRef]).optional();

/**
 * PUT /api/home's input: `carousel` (a list of slides; JSON text in a form), `sections` (any JSON, kept as
 * given) and, in a form, files image0, image1, ... replacing that slide's image. The handler reads each
 * part itself (parseCarousel: Slide per slide), as this describes.
 */
const HomepageBody = z.object({
  carousel: z.union([z.array(Slide).max(MAX_SLIDES), z.string()]).optional(),
  sections: z.unknown().optional(),
  ...Object.fromEntries(Array.from({ length: MAX_SLIDES }, (_, i) => [`image${i}`, z.file().optional()])),
});

const ADMIN = { 401: 'Not signed in', 403: 'Not an admin' } as const;

/** Every route the catalog service mounts (the /internal/inventory/* ones only in its own process). */
export const CATALOG_ROUTES: RouteSpec[] = [
  route({
    method: 'get',
    path: '/api/products',
    auth: 'public',
    service,
    summary:
      'Listed products, newest first; ?sort=best-selling by units sold; ?collection= one collection; ?includeDelisted=true (admins)',
    query: ProductListQuery,
    responses: { 200: 'List of products', 400: 'Bad query (sort, collection id)', 404: 'Collection not found' },
  }),
  route({
    method: 'get',
    path: '/api/products/:id',
    auth: 'public',
    service,
    summary: 'One product (delisted ones too, marked isDelisted)',
    params: ProductIdParam,
    responses: { 200: 'The product', 400: 'Bad product id', 404: 'Product not found' },
  }),
  route({
    method: 'post',
    path: '/api/products',
    auth: 'admin',
    service,
    summary: 'Add a product (multipart form with an optional image file, or JSON)',
    body: ProductCreateBody.extend({ image: imageFile }),
    bodyType: 'multipart',
    responses: {
      201: '{message, ...product}',
      400: 'Please fill name, price, and quantity; or a field named',
      ...ADMIN,
      413: 'Image over 5 MB',
      503: 'Saved but not yet readable',
    },
  }),
  route({
    method: 'put',
    path: '/api/products/:id',
    auth: 'admin',
    service,
    summary: 'Change a product (multipart with a new image, or JSON; any of the fields)',
    params: ProductIdParam,
    body: ProductUpdateBody.extend({ image: imageFile }),
    bodyType: 'multipart',
    responses: {
      200: '{message, ...product}',
      400: 'Bad input (names the field)',
      ...ADMIN,
      404: 'Product not found',
      413: 'Image over 5 MB',
      503: 'Saved but not yet readable',
    },
  }),
  route({
    method: 'put',
    path: '/api/products/:id/delist',
    auth: 'admin',
    service,
    summary: 'Delist or list again a product',
    params: ProductIdParam,
    body: DelistBody,
    responses: {
      200: '{message, ...product}',
      400: 'Bad id or isDelisted',
      ...ADMIN,
      404: 'Product not found',
      503: 'Saved but not yet readable',
    },
  }),
  route({
    method: 'delete',
    path: '/api/products/:id',
    auth: 'admin',
    service,
    summary: 'Delete a product',
    params: ProductIdParam,
    responses: {
      200: '{message, id}',
      400: 'Bad product id',
      ...ADMIN,
      404: 'Product not found',
      503: 'Deleted but the list has not caught up',
    },
  }),
  route({
    method: 'get',
    path: '/api/collections',
    auth: 'public',
    service,
    summary: 'Collections, oldest first, with their products in the order added',
    responses: { 200: '[{id, name, description, image, Products}]' },
  }),
  route({
    method: 'post',
    path: '/api/collections',
    auth: 'admin',
    service,
    summary: 'Create a collection (multipart with an image file, or JSON with an image URL)',
    body: CollectionCreateBody.extend({ image: imageFile }),
    bodyType: 'multipart',
    responses: {
      201: '{message, ...collection}',
      400: 'Collection name is required; or a field named',
      ...ADMIN,
      413: 'Image over 5 MB',
      503: 'Saved but not yet readable',
    },
  }),
  route({
    method: 'put',
    path: '/api/collections/:id',
    auth: 'admin',
    service,
    summary: "Change a collection's name, description or image (multipart or JSON)",
    params: CollectionIdParam,
    body: CollectionUpdateBody.extend({ image: imageFile }),
    bodyType: 'multipart',
    responses: {
      200: '{message, ...collection}',
      400: 'Bad input (names the field)',
      ...ADMIN,
      404: 'Collection not found',
      413: 'Image over 5 MB',
      503: 'Saved but not yet readable',
    },
  }),
  route({
    method: 'delete',
    path: '/api/collections/:id',
    auth: 'admin',
    service,
    summary: 'Delete a collection (its products stay in the catalog)',
    params: CollectionIdParam,
    responses: {
      200: '{message, id}',
      400: 'Bad collection id',
      ...ADMIN,
      404: 'Collection not found',
      503: 'Deleted but the list has not caught up',
    },
  }),
  route({
    method: 'post',
    path: '/api/collections/:id/products',
    auth: 'admin',
    service,
    summary: 'Add a product to a collection',
    params: CollectionIdParam,
    body: ProductRef,
    responses: {
      200: '{message, ...collection}',
      400: 'productId is required, or a bad id',
      ...ADMIN,
      404: 'Collection or product not found',
      503: 'Saved but not yet readable',
    },
  }),
  route({
    method: 'delete',
    path: '/api/collections/:id/products',
    auth: 'admin',
    service,
    summary: 'Take a product out of a collection ({productId} in the body, or ?productId=)',
    params: CollectionIdParam,
    query: ProductRef.partial(),
    body: ProductRef.partial(),
    responses: {
      200: '{message, ...collection}',
      400: 'productId is required, or a bad id',
      ...ADMIN,
      404: 'Collection not found',
      503: 'Saved but not yet readable',
    },
  }),
  route({
    method: 'get',
    path: '/api/home/sections',
    auth: 'public',
    service,
    summary: 'Active homepage sections by displayOrder; ?all=true adds inactive ones for admins',
    query: SectionListQuery,
    responses: { 200: 'List of sections', 400: "all must be 'true' or 'false'" },
  }),
  route({
    method: 'get',
    path: '/api/home/sections/:id/content',
    auth: 'public',
    service,
    summary: "A section's products or collections, in its order",
    params: SectionIdParam,
    responses: { 200: '{content: [...]}', 400: 'Bad section id', 404: 'Section not found (or inactive)' },
  }),
  route({
    method: 'post',
    path: '/api/home/sections',
    auth: 'admin',
    service,
    summary: 'Create a homepage section',
    body: SectionCreateBody,
    responses: {
      201: '{message, ...section}',
      400: 'Please fill name and select at least one item; or a field named',
      ...ADMIN,
      503: 'Saved but not yet readable',
    },
  }),
  route({
    method: 'put',
    path: '/api/home/sections/:id',
    auth: 'admin',
    service,
    summary: 'Change a homepage section (fields left out keep their value)',
    params: SectionIdParam,
    body: SectionUpdateBody,
    responses: {
      200: '{message, ...section}',
      400: 'Bad input (names the field)',
      ...ADMIN,
      404: 'Section not found',
      503: 'Saved but not yet readable',
    },
  }),
  route({
    method: 'delete',
    path: '/api/home/sections/:id',
    auth: 'admin',
    service,
    summary: 'Delete a homepage section',
    params: SectionIdParam,
    responses: {
      200: '{message, id}',
      400: 'Bad section id',
      ...ADMIN,
      404: 'Section not found',
      503: 'Deleted but the list has not caught up',
    },
  }),
  route({
    method: 'get',
    path: '/api/home',
    auth: 'public',
    service,
    summary: 'The homepage configuration: carousel slides and sections',
    responses: { 200: '{carousel: [{name, price, image, lining, size, height}], sections}' },
  }),
  route({
    method: 'put',
    path: '/api/home',
    auth: 'admin',
    service,
    summary: 'Save the homepage configuration (multipart: carousel JSON, sections JSON, image0.. files; or JSON)',
    body: HomepageBody,
    bodyType: 'multipart',
    responses: {
      200: '{message, carousel, sections}',
      400: "Bad input in plain words (e.g. 'Slide 2: Price is required'); errors[].path names the field (carousel[1].price)",
      ...ADMIN,
      413: 'Image over 5 MB',
      503: 'Saved but not yet readable',
    },
  }),
  route({
    method: 'post',
    path: '/internal/inventory/reserve',
    auth: 'service',
    service,
    summary: 'Hold stock for a checkout (service token)',
    body: ReserveBody,
    responses: {
      200: 'The reservation',
      400: 'Bad input',
      401: 'Service token required',
      403: 'Internal route',
      409: 'Not enough stock',
    },
  }),
  route({
    method: 'post',
    path: '/internal/inventory/release',
    auth: 'service',
    service,
    summary: "Release a checkout's stock hold (service token)",
    body: SettleBody,
    responses: { 200: '{ok: true}', 400: 'Bad input', 401: 'Service token required', 403: 'Internal route' },
  }),
  route({
    method: 'post',
    path: '/internal/inventory/commit',
    auth: 'service',
    service,
    summary: "Commit a paid checkout's stock hold (service token)",
    body: SettleBody,
    responses: {
      200: '{ok: true}',
      400: 'Bad input',
      401: 'Service token required',
      403: 'Internal route',
      409: 'No such reservation, or not enough stock',
    },
  }),
  ...CATALOG_HISTORY_ROUTES,
];
