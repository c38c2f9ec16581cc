import type { Request, RequestHandler } from 'express';
import { z } from 'zod';
import { NotFoundError, ValidationError } from '@shop/shared/errors/errors';
import { routeOf } from '@shop/shared/http/route-table';
import { awaitReadable } from '@shop/shared/runtime/read-your-writes';
import type { ServiceContext } from '@shop/shared/runtime/service';
import type { Written } from '../product/catalog.ts';
import { DISPLAY_ORDER_MESSAGE, FILL_SECTION_MESSAGE } from './decider.ts';
import { CONTENT_TYPES, TEXT_SIZES, TEXT_STYLES } from './events.ts';
import type { HomeSections } from './home-sections.ts';
import { listCollectionsByIds } from '../read-models/collections/collections-queries.ts';
import { HOME_SECTIONS_PROJECTION } from '../read-models/home-sections/home-sections-projection.ts';
import { findHomeSection, listHomeSections } from '../read-models/home-sections/home-sections-queries.ts';
import { listProductsByIds } from '../read-models/products/products-queries.ts';

export const IdParam = z.object({ id: z.string().regex(/^[\w-]{1,64}$/, 'Bad section id') });
export const ListQuery = z.object({ all: z.enum(['true', 'false'], "all must be 'true' or 'false'").optional() });

/** A field left empty ('' or null) counts as not sent, so its default (create) or current value (update) holds. */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), schema.optional());
const hexColour = (field: string) =>
  z
    .string(`${field} must be a hex colour such as #000000`)
    .trim()
    .regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, `${field} must be a hex colour such as #000000`);

const fields = {
  contentType: optional(z.enum(CONTENT_TYPES, "contentType must be 'products' or 'collections'")),
  textStyle: optional(z.enum(TEXT_STYLES, `textStyle must be one of: ${TEXT_STYLES.join(', ')}`)),
  textColor: optional(hexColour('textColor')),
  backgroundColor: optional(hexColour('backgroundColor')),
  // 'default' is the shopper-side material's name for the normal size.
  textSize: optional(
    z.preprocess((v) => (v === 'default' ? 'normal' : v), z.enum(TEXT_SIZES, 'textSize must be small, normal or big')),
  ),
  displayOrder: optional(
    z.preprocess(
      (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
      z.number(DISPLAY_ORDER_MESSAGE).int(DISPLAY_ORDER_MESSAGE).min(0, DISPLAY_ORDER_MESSAGE).max(1_000_000),
    ),
  ),
  isActive: optional(z.boolean('isActive must be true or false')),
};
// A name and at least one item: missing, empty or blank all get the seed's one message (the decider
// checks the saved result, so an update cannot empty them either).
const name = z.string(FILL_SECTION_MESSAGE).trim().max(200, 'Section name must be at most 200 characters');
const contentIds = z
  .array(
    z.string(FILL_SECTION_MESSAGE).regex(/^[\w-]{1,64}$/, 'contentIds must hold product or collection ids'),
    FILL_SECTION_MESSAGE,
  )
  .max(200, 'At most 200 items in a section')
  .transform((ids) => [...new Set(ids)]);
export const CreateBody = z.object({ name, contentIds, ...fields });
export const UpdateBody = z.object({ name: name.optional(), contentIds: contentIds.optional(), ...fields });

/** What the homepage section routes use. */
export type HomeSectionsPorts = Pick<ServiceContext, 'pool' | 'waitForProjection'> & { sections: HomeSections };

const route = routeOf<HomeSectionsPorts>('catalog');
const ADMIN = { 401: 'Not signed in', 403: 'Not an admin' } as const;
const isAdmin = (req: Request) => req.user?.isAdmin === true;

const waitFor = (ctx: HomeSectionsPorts, written: Written) =>
  awaitReadable(
    ctx,
    { schema: 'catalog', consumer: HOME_SECTIONS_PROJECTION },
    written,
    'Saved, but the sections list has not caught up yet; refresh in a moment',
  );
const waitAndRead = async (ctx: HomeSectionsPorts, sectionId: string, written: Written) => {
  await waitFor(ctx, written);
  const found = await findHomeSection(ctx.pool, sectionId);
  if (!found) throw new NotFoundError('Section not found');
  return found;
};

/** A new section without a name or items: the seed's one message, before any field is named. */
const filledSection = () => [
  ((req, _res, next) => {
    const raw = (req.body ?? {}) as { name?: unknown; contentIds?: unknown };
    const named = typeof raw.name === 'string' && raw.name.trim() !== '';
    if (!named || !Array.isArray(raw.contentIds) || raw.contentIds.length === 0)
      return next(new ValidationError(FILL_SECTION_MESSAGE));
    next();
  }) satisfies RequestHandler,
];

/**
 * Routes of homepage sections: /api/home/sections/... (only these: /api/home itself, the carousel, is
 * another file's). The public list holds active sections in display order; admins add `?all=true` for
 * inactive ones too. A section's content resolves its ids at read time: products as GET /api/products
 * answers them (listed ones only), collections as GET /api/collections does, in the section's order.
 */
export const HOME_SECTION_ROUTES = [
  route({
    method: 'get',
    path: '/api/home/sections',
    auth: 'public',
    summary: 'Active homepage sections by displayOrder; ?all=true adds inactive ones for admins',
    query: ListQuery,
    responses: { 200: 'List of sections', 400: "all must be 'true' or 'false'" },
    handler:
      (ctx) =>
      async (req, res, { query: q }) => {
        // Inactive sections are for admins; anyone else asking simply gets the public list.
        res.json(await listHomeSections(ctx.pool, { includeInactive: q.all === 'true' && isAdmin(req) }));
      },
  }),
  route({
    method: 'get',
    path: '/api/home/sections/:id/content',
    auth: 'public',
    summary: "A section's products or collections, in its order",
    params: IdParam,
    responses: { 200: '{content: [...]}', 400: 'Bad section id', 404: 'Section not found (or inactive)' },
    handler:
      (ctx) =>
      async (req, res, { params: { id } }) => {
        const section = await findHomeSection(ctx.pool, id);
        // An inactive section is hidden from shoppers, its content too; admins may look at it.
        if (!section || (!section.isActive && !isAdmin(req))) throw new NotFoundError('Section not found');
        const content =
          section.contentType === 'products'
            ? await listProductsByIds(ctx.pool, section.contentIds, { includeDelisted: false })
            : await listCollectionsByIds(ctx.pool, section.contentIds, { includeDelisted: isAdmin(req) });
        res.json({ content });
      },
  }),
  route({
    method: 'post',
    path: '/api/home/sections',
    auth: 'admin',
    summary: 'Create a homepage section',
    middleware: filledSection,
    body: CreateBody,
    responses: {
      201: '{message, ...section}',
      400: 'Please fill name and select at least one item; or a field named',
      ...ADMIN,
      503: 'Saved but not yet readable',
    },
    handler:
      (ctx) =>
      async (req, res, { body }) => {
        const { sectionId, written } = await ctx.sections.create(
          {
            name: body.name,
            contentType: body.contentType ?? 'products',
            contentIds: body.contentIds,
            textStyle: body.textStyle ?? 'default',
            textColor: body.textColor ?? '#000000',
            backgroundColor: body.backgroundColor ?? '#FFFFFF',
            textSize: body.textSize ?? 'normal',
            displayOrder: body.displayOrder ?? 0,
            isActive: body.isActive ?? true,
          },
          req.user!.id,
        );
        res.status(201).json({ message: 'Section created', ...(await waitAndRead(ctx, sectionId, written)) });
      },
  }),
  route({
    method: 'put',
    path: '/api/home/sections/:id',
    auth: 'admin',
    summary: 'Change a homepage section (fields left out keep their value)',
    params: IdParam,
    body: UpdateBody,
    responses: {
      200: '{message, ...section}',
      400: 'Bad input (names the field)',
      ...ADMIN,
      404: 'Section not found',
      503: 'Saved but not yet readable',
    },
    handler:
      (ctx) =>
      async (req, res, { params: { id }, body }) => {
        const written = await ctx.sections.change(id, body, req.user!.id);
        res.json({ message: 'Section updated', ...(await waitAndRead(ctx, id, written)) });
      },
  }),
  route({
    method: 'delete',
    path: '/api/home/sections/:id',
    auth: 'admin',
    summary: 'Delete a homepage section',
    params: IdParam,
    responses: {
      200: '{message, id}',
      400: 'Bad section id',
      ...ADMIN,
      404: 'Section not found',
      503: 'Deleted but the list has not caught up',
    },
    handler:
      (ctx) =>
      async (req, res, { params: { id } }) => {
        await waitFor(ctx, await ctx.sections.remove(id, req.user!.id));
        res.json({ message: 'Section deleted', id });
      },
  }),
];
