import { Router, type Request } from 'express';
import { z } from 'zod';
import { requireAdmin } from '@shop/shared/auth/tokens';
import { NotFoundError } from '@shop/shared/errors/errors';
import { parseInput } from '@shop/shared/http/validation';
import { awaitReadable } from '@shop/shared/runtime/read-your-writes';
import type { ServiceContext } from '@shop/shared/runtime/service';
import { imageRef } from '../product/catalog-api.ts';
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
export const UpdateBody = z.object({ name: name.optional(), description: description.optional(), image: imageRef.optional() });
export const ProductRef = z.object({ productId: z.string({ error: 'productId is required' }).pipe(id('product')) });

/**
 * Routes of collections (admin-curated groups of products): /api/collections/... Everyone reads them; a
 * collection's `Products` lists only products the catalog holds, and delisted ones only to admins (marked
 * `isDelisted`), who need to see what they put in.
 */
export function collectionsRouter(ctx: ServiceContext, deps: { collections: Collections; images: ImageStore }): Router {
  const r = Router();
  const { collections, images } = deps;
  const form = productFormParser();
  const imageFrom = async (req: Request): Promise<string | undefined> => (req.file ? images.save(req.file) : undefined);
  const isAdmin = (req: Request) => req.user?.isAdmin === true;

  const waitFor = (written: Written) =>
    awaitReadable(
      ctx,
      { schema: 'catalog', consumer: COLLECTIONS_PROJECTION },
      written,
      'Saved, but the collections list has not caught up yet; refresh in a moment',
    );
  const waitAndRead = async (collectionId: string, written: Written, req: Request) => {
    await waitFor(written);
    const found = await findCollection(ctx.pool, collectionId, { includeDelisted: isAdmin(req) });
    if (!found) throw new NotFoundError('Collection not found');
    return found;
  };

  r.get('/api/collections', async (req, res) => {
    res.json(await listCollections(ctx.pool, { includeDelisted: isAdmin(req) }));
  });

  r.post('/api/collections', requireAdmin, form, async (req, res) => {
    const body = parseInput(CreateBody, req.body ?? {});
    const uploaded = await imageFrom(req);
    const { collectionId, written } = await collections.create(
      { name: body.name, description: body.description ?? '', image: uploaded ?? body.image ?? '' },
      req.user!.id,
    );
    res.status(201).json({ message: 'Collection created', ...(await waitAndRead(collectionId, written, req)) });
  });

  // The admin screen sends only a new image (a form); JSON may change name, description or image.
  r.put('/api/collections/:id', requireAdmin, form, async (req, res) => {
    const { id: collectionId } = parseInput(IdParam, req.params);
    const body = parseInput(UpdateBody, req.body ?? {});
    const uploaded = await imageFrom(req);
    const { image, ...rest } = body;
    const written = await collections.changeDetails(
      collectionId,
      { ...rest, ...(uploaded || image !== undefined ? { image: uploaded ?? image } : {}) },
      req.user!.id,
    );
    res.json({ message: 'Collection updated', ...(await waitAndRead(collectionId, written, req)) });
  });

  r.delete('/api/collections/:id', requireAdmin, async (req, res) => {
    const { id: collectionId } = parseInput(IdParam, req.params);
    await waitFor(await collections.remove(collectionId, req.user!.id));
    res.json({ message: 'Collection deleted', id: collectionId });
  });

  // {productId} in the body (the seed's call); DELETE also takes ?productId= for clients that drop DELETE bodies.
  const productRef = (req: Request) =>
    parseInput(ProductRef, {
      productId: (req.body as { productId?: unknown } | undefined)?.productId ?? req.query.productId,
    });

  r.post('/api/collections/:id/products', requireAdmin, async (req, res) => {
    const { id: collectionId } = parseInput(IdParam, req.params);
    const { productId } = productRef(req);
    const written = await collections.addProduct(collectionId, productId, req.user!.id);
    res.json({ message: 'Product added to collection', ...(await waitAndRead(collectionId, written, req)) });
  });

  r.delete('/api/collections/:id/products', requireAdmin, async (req, res) => {
    const { id: collectionId } = parseInput(IdParam, req.params);
    const { productId } = productRef(req);
    const written = await collections.removeProduct(collectionId, productId, req.user!.id);
    res.json({ message: 'Product removed from collection', ...(await waitAndRead(collectionId, written, req)) });
  });

  return r;
}
