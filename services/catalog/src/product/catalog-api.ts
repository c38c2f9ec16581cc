import express, { type ErrorRequestHandler, type Request, type RequestHandler } from 'express';
import { z } from 'zod';
import { NotFoundError, ValidationError } from '@shop/shared/errors/errors';
import { hundredthsInput } from '@shop/shared/http/amount-input';
import { routeOf } from '@shop/shared/http/route-table';
import { awaitReadable } from '@shop/shared/runtime/read-your-writes';
import type { ServiceContext } from '@shop/shared/runtime/service';
import type { Catalog, Written } from './catalog.ts';
import { PRODUCTS_PROJECTION } from '../read-models/products/products-projection.ts';
import type { ProductListCache } from '../read-models/products/product-list-cache.ts';
import { findProduct, listProductsByIds } from '../read-models/products/products-queries.ts';
import { listBestSelling } from '../read-models/best-sellers/best-sellers-queries.ts';
import { collectionProductIds } from '../read-models/collections/collections-queries.ts';
import { productFormParser, type ImageStore } from '../uploads/images.ts';

const FILL_MESSAGE = 'Please fill name, price, and quantity';

const text = (max: number) => z.string().trim().max(max, `at most ${max} characters`);
const numberFromInput = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
  z.number().finite(),
);
const price = hundredthsInput('Price', { max: 10_000_000 });
const quantity = numberFromInput.pipe(
  z.number().int('Quantity must be a whole number').min(0, 'Quantity must be at least 0').max(1_000_000),
);

/** Size map: JSON text (multipart) or an object; integer counts >= 0; labels unique after trimming. */
const sizeQuantities = z
  .preprocess(
    (v) => {
      if (typeof v !== 'string') return v;
      if (v.trim() === '') return {};
      try {
        return JSON.parse(v);
      } catch {
        return Symbol('bad');
      }
    },
    z.record(z.string(), z.union([z.number(), z.string()]), 'sizeQuantities must be a JSON object of size to count'),
  )
  .transform((obj, ctx) => {
    const seen = new Set<string>();
    const out: Array<[string, number]> = [];
    for (const [rawLabel, rawCount] of Object.entries(obj)) {
      const label = rawLabel.trim();
      const count = typeof rawCount === 'string' ? Number(rawCount) : rawCount;
      if (!label || label.length > 20)
        ctx.addIssue({ code: 'custom', message: 'Size labels must be 1 to 20 characters' });
      else if (seen.has(label.toUpperCase()))
        ctx.addIssue({ code: 'custom', message: `Size label ${label} is repeated` });
      else if (!Number.isInteger(count) || count < 0)
        ctx.addIssue({ code: 'custom', message: `Quantity for size ${label} must be a whole number of at least 0` });
      // as the product's quantity: a count past Postgres's integer would be written to the log and then
      // parked by every projection of it
      else if (count > 1_000_000)
        ctx.addIssue({ code: 'custom', message: `Quantity for size ${label} must be at most 1000000` });
      seen.add(label.toUpperCase());
      out.push([label, count]);
    }
    if (out.length > 30) ctx.addIssue({ code: 'custom', message: 'At most 30 sizes' });
    return out;
  });
export const imageRef = z
  .string()
  .trim()
  .max(2000)
  .refine(
    (v) => v === '' || /^https?:\/\//.test(v) || /^\/uploads\/[\w./-]+$/.test(v),
    'Image must be an http(s) URL or an uploaded image path',
  );

const optionalFields = {
  description: text(5000).optional(),
  category: text(100).optional(),
  size: text(100).optional(),
  color: text(100).optional(),
  brand: text(100).optional(),
  material: text(200).optional(),
  image: imageRef.optional(),
  sizeQuantities: sizeQuantities.optional(),
};
export const CreateBody = z.object({ name: text(200).min(1, FILL_MESSAGE), price, quantity, ...optionalFields });
export const UpdateBody = z.object({
  name: text(200).min(1, 'Name is required').optional(),
  price: price.optional(),
  quantity: quantity.optional(),
  ...optionalFields,
});
export const ListQuery = z.object({
  includeDelisted: z.enum(['true', 'false']).optional(),
  sort: z.enum(['best-selling'], "sort must be 'best-selling' (or left out for newest first)").optional(),
  collection: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .regex(/^[\w-]{1,64}$/, 'Bad collection id')
      .optional(),
  ),
});
export const IdParam = z.object({ id: z.string().regex(/^[\w-]{1,64}$/, 'Bad product id') });
export const DelistBody = z.object({ isDelisted: z.boolean({ error: 'isDelisted must be true or false' }) });
/** The form's `image` part, as documented: an uploaded file, or (as text) an image URL. */
export const imageFile = z.union([z.file(), imageRef]).optional();

/** What the product routes use. */
export type ProductsPorts = Pick<ServiceContext, 'pool' | 'waitForProjection'> & {
  catalog: Catalog;
  images: ImageStore;
  listCache: ProductListCache;
};

const route = routeOf<ProductsPorts>('catalog');
const ADMIN = { 401: 'Not signed in', 403: 'Not an admin' } as const;

/** Uploaded and seeded images. Names are generated, so they can be cached for long; nothing there runs. */
export const uploadsStatic = (uploadsDir: string): RequestHandler =>
  express.static(uploadsDir, {
    immutable: true,
    maxAge: '30d',
    fallthrough: false,
    setHeaders: (res) => {
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
    },
  });

/** Multer and JSON both leave req.body undefined for an empty request; make that a clear 400. */
export const malformedProductBody: ErrorRequestHandler = (err: unknown, _req, _res, next) => {
  if (err instanceof SyntaxError) return next(new ValidationError('Malformed request body'));
  next(err);
};

const waitAndRead = async (ctx: ProductsPorts, productId: string, written: Written) => {
  await awaitReadable(
    ctx,
    { schema: 'catalog', consumer: PRODUCTS_PROJECTION },
    written,
    'Saved, but the product list has not caught up yet; refresh in a moment',
  );
  return findProduct(ctx.pool, productId);
};
const productForm = () => [productFormParser()];
/** The form, then the seed's one message for a product without name, price or quantity. */
const filledProductForm = () => [
  productFormParser(),
  ((req, _res, next) => {
    const raw = (req.body ?? {}) as Record<string, unknown>;
    const blank = (v: unknown) => v === undefined || v === null || String(v).trim() === '' || Number.isNaN(Number(v));
    if (typeof raw.name !== 'string' || raw.name.trim() === '' || blank(raw.price) || blank(raw.quantity))
      return next(new ValidationError(FILL_MESSAGE));
    next();
  }) satisfies RequestHandler,
];
const imageFrom = async (ctx: ProductsPorts, req: Request): Promise<string | undefined> =>
  req.file ? ctx.images.save(req.file) : undefined;

/** Routes of the catalog service: /api/products/... */
export const PRODUCT_ROUTES = [
  route({
    method: 'get',
    path: '/api/products',
    auth: 'public',
    summary:
      'Listed products, newest first; ?sort=best-selling by units sold; ?collection= one collection; ?includeDelisted=true (admins)',
    query: ListQuery,
    responses: { 200: 'List of products', 400: 'Bad query (sort, collection id)', 404: 'Collection not found' },
    handler:
      (ctx) =>
      async (req, res, { query: q }) => {
        // Delisted products are for admins; anyone else asking simply gets the public list.
        const includeDelisted = q.includeDelisted === 'true' && req.user?.isAdmin === true;
        if (q.collection !== undefined) {
          // One collection's products, in the order they were added: read from Postgres, never from or into
          // the list cache, which holds the unfiltered list only.
          const ids = await collectionProductIds(ctx.pool, q.collection);
          if (!ids) throw new NotFoundError('Collection not found');
          res.setHeader('Cache-Control', 'no-cache');
          return void res.json(await listProductsByIds(ctx.pool, ids, { includeDelisted }));
        }
        if (q.sort === 'best-selling') {
          // Ranked by the best-sellers projection; read from Postgres, outside the list cache (unfiltered list only).
          res.setHeader('Cache-Control', 'no-cache');
          return void res.json(await listBestSelling(ctx.pool, { includeDelisted }));
        }
        const body = await ctx.listCache.get(includeDelisted);
        res.setHeader('Content-Type', 'application/json; charset=utf-8');
        res.setHeader('Cache-Control', 'no-cache');
        await body.send(req, res); // compressed once per change of the list, not per request
      },
  }),
  route({
    method: 'get',
    path: '/api/products/:id',
    auth: 'public',
    summary: 'One product (delisted ones too, marked isDelisted)',
    params: IdParam,
    responses: { 200: 'The product', 400: 'Bad product id', 404: 'Product not found' },
    handler:
      (ctx) =>
      async (_req, res, { params: { id } }) => {
        const product = await findProduct(ctx.pool, id);
        if (!product) throw new NotFoundError('Product not found');
        res.json(product);
      },
  }),
  route({
    method: 'post',
    path: '/api/products',
    auth: 'admin',
    summary: 'Add a product (multipart form with an optional image file, or JSON)',
    middleware: filledProductForm,
    body: CreateBody,
    documented: { body: CreateBody.extend({ image: imageFile }) },
    bodyType: 'multipart',
    responses: {
      201: '{message, ...product}',
      400: 'Please fill name, price, and quantity; or a field named',
      ...ADMIN,
      413: 'Image over 5 MB',
      503: 'Saved but not yet readable',
    },
    handler:
      (ctx) =>
      async (req, res, { body }) => {
        const uploaded = await imageFrom(ctx, req);
        const { productId, written } = await ctx.catalog.createProduct(
          {
            name: body.name,
            pricePaise: body.price,
            description: body.description ?? '',
            category: body.category ?? '',
            size: body.size ?? '',
            color: body.color ?? '',
            brand: body.brand ?? '',
            material: body.material ?? '',
            image: uploaded ?? body.image ?? '',
          },
          { quantity: body.quantity, sizeQuantities: body.sizeQuantities ?? [] },
          { actor: req.user!.id },
        );
        res.status(201).json({ message: 'Product added', ...(await waitAndRead(ctx, productId, written)) });
      },
  }),
  route({
    method: 'put',
    path: '/api/products/:id',
    auth: 'admin',
    summary: 'Change a product (multipart with a new image, or JSON; any of the fields)',
    middleware: productForm,
    params: IdParam,
    body: UpdateBody,
    documented: { body: UpdateBody.extend({ image: imageFile }) },
    bodyType: 'multipart',
    responses: {
      200: '{message, ...product}',
      400: 'Bad input (names the field)',
      ...ADMIN,
      404: 'Product not found',
      413: 'Image over 5 MB',
      503: 'Saved but not yet readable',
    },
    handler:
      (ctx) =>
      async (req, res, { params: { id }, body }) => {
        const uploaded = await imageFrom(ctx, req);
        const { price: p, quantity: qty, sizeQuantities: sq, image, ...rest } = body;
        const written = await ctx.catalog.updateProduct(
          id,
          {
            ...rest,
            ...(p !== undefined ? { pricePaise: p } : {}),
            ...(uploaded || image !== undefined ? { image: uploaded ?? image } : {}),
          },
          { quantity: qty, sizeQuantities: sq },
          req.user!.id,
        );
        const product = await waitAndRead(ctx, id, written);
        if (!product) throw new NotFoundError('Product not found');
        res.json({ message: 'Product updated', ...product });
      },
  }),
  route({
    method: 'put',
    path: '/api/products/:id/delist',
    auth: 'admin',
    summary: 'Delist or list again a product',
    params: IdParam,
    body: DelistBody,
    responses: {
      200: '{message, ...product}',
      400: 'Bad id or isDelisted',
      ...ADMIN,
      404: 'Product not found',
      503: 'Saved but not yet readable',
    },
    handler:
      (ctx) =>
      async (req, res, { params: { id }, body: { isDelisted } }) => {
        const product = await waitAndRead(ctx, id, await ctx.catalog.setListing(id, isDelisted, req.user!.id));
        if (!product) throw new NotFoundError('Product not found');
        res.json({ message: isDelisted ? 'Product delisted' : 'Product activated', ...product });
      },
  }),
  route({
    method: 'delete',
    path: '/api/products/:id',
    auth: 'admin',
    summary: 'Delete a product',
    params: IdParam,
    responses: {
      200: '{message, id}',
      400: 'Bad product id',
      ...ADMIN,
      404: 'Product not found',
      503: 'Deleted but the list has not caught up',
    },
    handler:
      (ctx) =>
      async (req, res, { params: { id } }) => {
        await waitAndRead(ctx, id, await ctx.catalog.deleteProduct(id, req.user!.id));
        res.json({ message: 'Product deleted', id });
      },
  }),
];
