import type { Request } from 'express';
import { z } from 'zod';
import { NotFoundError } from '@shop/shared/errors/errors';
import { routeOf } from '@shop/shared/http/route-table';
import { parseInput } from '@shop/shared/http/validation';
import { awaitReadable } from '@shop/shared/runtime/read-your-writes';
import type { ServiceContext } from '@shop/shared/runtime/service';
import { imageFile, imageRef } from '../product/catalog-api.ts';
import type { Written } from '../product/catalog.ts';
import { COLLECTION_NAME_REQUIRED } from './decider.ts';
import type { Collections } from './collections.ts';
import { COLLECTIONS_PROJECTION } from '../read-models/collections/collections-projection.ts';
import { findCollection, listCollections } from '../read-models/collections/collections-queries.ts';
import { productFormParser, type ImageStore } from '../uploads/images.ts';

const id = (what: string) => z.string().regex(/^[\w-]{1,64}$/, `Bad ${what} id`);
export const IdParam = z.object({ id: id('collection') });
const name = z
  .string({ error: COLLECTION_NAME_REQUIRED })
  .trim()
  .min(1, COLLECTION_NAME_REQUIRED)
  .max(200, 'Collection name must be at most 200 characters');
const description = z.string().trim().max(5000, 'Description must be at most 5000 characters');
export const CreateBody = z.object({ name, description: description.optional(), image: imageRef.optional() });
export const UpdateBody = z.object({
  name: name.optional(),
  description: description.optional(),
  image: imageRef.optional(),
});
export const ProductRef = z.object({ productId: z.string({ error: 'productId is required' }).pipe(id('product')) });

/** What the collection routes use. */
export type CollectionsPorts = Pick<ServiceContext, 'pool' | 'waitForProjection'> & {
  collections: Collections;
  images: ImageStore;
};

const route = routeOf<CollectionsPorts>('catalog');
const ADMIN = { 401: 'Not signed in', 403: 'Not an admin' } as const;

const form = () => [productFormParser()];
const imageFrom = async (ctx: CollectionsPorts, req: Request): Promise<string | undefined> =>
  req.file ? ctx.images.save(req.file) : undefined;
const isAdmin = (req: Request) => req.user?.isAdmin === true;

const waitFor = (ctx: CollectionsPorts, written: Written) =>
  awaitReadable(
    ctx,
    { schema: 'catalog', consumer: COLLECTIONS_PROJECTION },
    written,
    'Saved, but the collections list has not caught up yet; refresh in a moment',
  );
const waitAndRead = async (ctx: CollectionsPorts, collectionId: string, written: Written, req: Request) => {
  await waitFor(ctx, written);
  const found = await findCollection(ctx.pool, collectionId, { includeDelisted: isAdmin(req) });
  if (!found) throw new NotFoundError('Collection not found');
  return found;
};

// {productId} in the body (the seed's call); DELETE also takes ?productId= for clients that drop DELETE bodies.
const productRef = (req: Request) =>
  parseInput(ProductRef, {
    productId: (req.body as { productId?: unknown } | undefined)?.productId ?? req.query.productId,
  });

/**
 * Routes of collections (admin-curated groups of products): /api/collections/... Everyone reads them; a
 * collection's `Products` lists only products the catalog holds, and delisted ones only to admins (marked
 * `isDelisted`), who need to see what they put in.
 */
export const COLLECTION_ROUTES = [
  route({
    method: 'get',
    path: '/api/collections',
    auth: 'public',
    summary: 'Collections, oldest first, with their products in the order added',
    responses: { 200: '[{id, name, description, image, Products}]' },
    handler: (ctx) => async (req, res) => {
      res.json(await listCollections(ctx.pool, { includeDelisted: isAdmin(req) }));
    },
  }),
  route({
    method: 'post',
    path: '/api/collections',
    auth: 'admin',
    summary: 'Create a collection (multipart with an image file, or JSON with an image URL)',
    middleware: form,
    body: CreateBody,
    documented: { body: CreateBody.extend({ image: imageFile }) },
    bodyType: 'multipart',
    responses: {
      201: '{message, ...collection}',
      400: 'Collection name is required; or a field named',
      ...ADMIN,
      413: 'Image over 5 MB',
      503: 'Saved but not yet readable',
    },
    handler:
      (ctx) =>
      async (req, res, { body }) => {
        const uploaded = await imageFrom(ctx, req);
        const { collectionId, written } = await ctx.collections.create(
          { name: body.name, description: body.description ?? '', image: uploaded ?? body.image ?? '' },
          req.user!.id,
        );
        res
          .status(201)
          .json({ message: 'Collection created', ...(await waitAndRead(ctx, collectionId, written, req)) });
      },
  }),
  // The admin screen sends only a new image (a form); JSON may change name, description or image.
  route({
    method: 'put',
    path: '/api/collections/:id',
    auth: 'admin',
    summary: "Change a collection's name, description or image (multipart or JSON)",
    middleware: form,
    params: IdParam,
    body: UpdateBody,
    documented: { body: UpdateBody.extend({ image: imageFile }) },
    bodyType: 'multipart',
    responses: {
      200: '{message, ...collection}',
      400: 'Bad input (names the field)',
      ...ADMIN,
      404: 'Collection not found',
      413: 'Image over 5 MB',
      503: 'Saved but not yet readable',
    },
    handler:
      (ctx) =>
      async (req, res, { params: { id: collectionId }, body }) => {
        const uploaded = await imageFrom(ctx, req);
        const { image, ...rest } = body;
        const written = await ctx.collections.changeDetails(
          collectionId,
          { ...rest, ...(uploaded || image !== undefined ? { image: uploaded ?? image } : {}) },
          req.user!.id,
        );
        res.json({ message: 'Collection updated', ...(await waitAndRead(ctx, collectionId, written, req)) });
      },
  }),
  route({
    method: 'delete',
    path: '/api/collections/:id',
    auth: 'admin',
    summary: 'Delete a collection (its products stay in the catalog)',
    params: IdParam,
    responses: {
      200: '{message, id}',
      400: 'Bad collection id',
      ...ADMIN,
      404: 'Collection not found',
      503: 'Deleted but the list has not caught up',
    },
    handler:
      (ctx) =>
      async (req, res, { params: { id: collectionId } }) => {
        await waitFor(ctx, await ctx.collections.remove(collectionId, req.user!.id));
        res.json({ message: 'Collection deleted', id: collectionId });
      },
  }),
  route({
    method: 'post',
    path: '/api/collections/:id/products',
    auth: 'admin',
    summary: 'Add a product to a collection',
    params: IdParam,
    documented: { body: ProductRef },
    responses: {
      200: '{message, ...collection}',
      400: 'productId is required, or a bad id',
      ...ADMIN,
      404: 'Collection or product not found',
      503: 'Saved but not yet readable',
    },
    handler:
      (ctx) =>
      async (req, res, { params: { id: collectionId } }) => {
        const { productId } = productRef(req);
        const written = await ctx.collections.addProduct(collectionId, productId, req.user!.id);
        res.json({ message: 'Product added to collection', ...(await waitAndRead(ctx, collectionId, written, req)) });
      },
  }),
  route({
    method: 'delete',
    path: '/api/collections/:id/products',
    auth: 'admin',
    summary: 'Take a product out of a collection ({productId} in the body, or ?productId=)',
    params: IdParam,
    documented: { query: ProductRef.partial(), body: ProductRef.partial() },
    responses: {
      200: '{message, ...collection}',
      400: 'productId is required, or a bad id',
      ...ADMIN,
      404: 'Collection not found',
      503: 'Saved but not yet readable',
    },
    handler:
      (ctx) =>
      async (req, res, { params: { id: collectionId } }) => {
        const { productId } = productRef(req);
        const written = await ctx.collections.removeProduct(collectionId, productId, req.user!.id);
        res.json({
          message: 'Product removed from collection',
          ...(await waitAndRead(ctx, collectionId, written, req)),
        });
      },
  }),
];
