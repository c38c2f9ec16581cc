import type { Request } from 'express';
import { z } from 'zod';
import { ValidationError } from '@shop/shared/errors/errors';
import { routeOf } from '@shop/shared/http/route-table';
import { assertShallow, MAX_BODY_DEPTH } from '@shop/shared/http/safe-text';
import { hasAtMostTwoDecimals, rupeesToPaise } from '@shop/shared/money/money';
import { awaitReadable } from '@shop/shared/runtime/read-your-writes';
import type { ServiceContext } from '@shop/shared/runtime/service';
import { imageRef } from '../product/catalog-api.ts';
import type { Homepage } from './homepage.ts';
import { assertValidCarousel, PRICE_MESSAGE, slideMessage } from './decider.ts';
import { HOMEPAGE_STREAM, MAX_SLIDES, type CarouselSlide } from './events.ts';
import { HOMEPAGE_PROJECTION } from '../read-models/homepage/homepage-projection.ts';
import { readHomepage } from '../read-models/homepage/homepage-queries.ts';
import { numberedImagesFormParser, type ImageStore } from '../uploads/images.ts';

export const HOMEPAGE_SAVED_MESSAGE = 'Homepage configuration has been saved successfully';
const MAX_PRICE_RUPEES = 10_000_000;
const MAX_SECTIONS_JSON_CHARS = 200_000;

const slideText = (label: string) =>
  z.preprocess(
    (v) => v ?? '',
    z.string(`${label} must be text`).trim().max(200, `${label} can have at most 200 characters`),
  );
// Only the shape is read here; the rules a saved carousel keeps (name required, price >= 0) are the decider's.
export const Slide = z.object(
  {
    name: slideText('Name'),
    price: z
      .preprocess(
        (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v.trim()) : v),
        z
          .number({
            error: (issue) => (issue.input === undefined || issue.input === '' ? 'Price is required' : PRICE_MESSAGE),
          })
          .max(MAX_PRICE_RUPEES, `Price must be at most ${MAX_PRICE_RUPEES}`),
      )
      .refine(hasAtMostTwoDecimals, 'Price can have at most 2 decimals')
      .transform(rupeesToPaise),
    image: z.preprocess((v) => v ?? '', imageRef),
    lining: slideText('Lining'),
    size: slideText('Size'),
    height: slideText('Height'),
  },
  'A slide must be an object with name, price, lining, size and height',
);

/**
 * PUT /api/home's input, as documented: `carousel` (a list of slides; JSON text in a form), `sections` (any
 * JSON, kept as given) and, in a form, files image0, image1, ... replacing that slide's image. The handler
 * reads each part itself (parseCarousel: Slide per slide), as this describes.
 */
const HomepageBody = z.object({
  carousel: z.union([z.array(Slide).max(MAX_SLIDES), z.string()]).optional(),
  sections: z.unknown().optional(),
  ...Object.fromEntries(Array.from({ length: MAX_SLIDES }, (_, i) => [`image${i}`, z.file().optional()])),
});

/** A field that a multipart form sends as JSON text, and a JSON body may send as the value itself. */
function jsonField(req: Request, name: string, value: unknown): unknown {
  if (!req.is('multipart/form-data') && !(name === 'carousel' && typeof value === 'string')) return value;
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(value));
  } catch {
    throw new ValidationError(`${name} must be valid JSON`, [{ path: name, message: `${name} must be valid JSON` }]);
  }
  // The edge caps a JSON body's depth; JSON text inside a form field reaches here unchecked.
  assertShallow(parsed, MAX_BODY_DEPTH, name);
  return parsed;
}

function parseCarousel(value: unknown): CarouselSlide[] {
  if (!Array.isArray(value))
    throw new ValidationError('carousel must be a JSON list of slides', [
      { path: 'carousel', message: 'carousel must be a JSON list of slides' },
    ]);
  if (value.length > MAX_SLIDES) throw new ValidationError(`carousel can have at most ${MAX_SLIDES} slides`);
  const issues: Array<{ path: string; message: string }> = [];
  const slides = value.map((raw, i) => {
    const r = Slide.safeParse(raw);
    if (r.success) {
      const { name, price, image, lining, size, height } = r.data;
      return { name, pricePaise: price, image, lining, size, height };
    }
    for (const issue of r.error.issues)
      issues.push({
        path: [`carousel[${i}]`, ...issue.path.map(String)].join('.'),
        message: slideMessage(i, issue.message),
      });
    return undefined;
  });
  if (issues.length) throw new ValidationError(issues.map((i) => i.message).join('; '), issues);
  return slides as CarouselSlide[];
}

/** Slide images: files named image0, image1, ... replace the image of the slide with that index. */
function slideImages(req: Request, carousel: CarouselSlide[] | undefined): Map<number, Express.Multer.File> {
  const byIndex = new Map<number, Express.Multer.File>();
  for (const file of (req.files as Express.Multer.File[] | undefined) ?? []) {
    const index = Number(file.fieldname.slice('image'.length));
    if (!carousel || index >= carousel.length)
      throw new ValidationError(
        `${file.fieldname} has no slide: the carousel sent has ${carousel?.length ?? 0} slide(s)`,
        [{ path: file.fieldname, message: 'no slide with this index in carousel' }],
      );
    if (byIndex.has(index)) throw new ValidationError(`${file.fieldname} was sent more than once`);
    byIndex.set(index, file);
  }
  return byIndex;
}

/** What the homepage routes use. */
export type HomepagePorts = Pick<ServiceContext, 'pool' | 'waitForProjection'> & {
  homepage: Homepage;
  images: ImageStore;
};

const route = routeOf<HomepagePorts>('catalog');

/** Saves a slide's upload; a refusal names the slide as the admin's form does ('Slide 2: Only image files ...'). */
const slideImage = async (ctx: HomepagePorts, index: number, file: Express.Multer.File) => {
  try {
    return await ctx.images.save(file);
  } catch (err) {
    if (err instanceof ValidationError)
      throw new ValidationError(slideMessage(index, err.message), [{ path: `image${index}`, message: err.message }]);
    throw err;
  }
};

/** Routes of the home page configuration: GET and PUT /api/home (the sections have their own routes). */
export const HOMEPAGE_ROUTES = [
  route({
    method: 'get',
    path: '/api/home',
    auth: 'public',
    summary: 'The homepage configuration: carousel slides and sections',
    responses: { 200: '{carousel: [{name, price, image, lining, size, height}], sections}' },
    handler: (ctx) => async (_req, res) => {
      res.json(await readHomepage(ctx.pool));
    },
  }),
  // The seed's form: carousel (JSON), sections (JSON, kept as given), image<N> files; or the same as JSON.
  route({
    method: 'put',
    path: '/api/home',
    auth: 'admin',
    summary: 'Save the homepage configuration (multipart: carousel JSON, sections JSON, image0.. files; or JSON)',
    middleware: () => [numberedImagesFormParser('image', MAX_SLIDES)],
    documented: { body: HomepageBody },
    bodyType: 'multipart',
    responses: {
      200: '{message, carousel, sections}',
      400: "Bad input in plain words (e.g. 'Slide 2: Price is required'); errors[].path names the field (carousel[1].price)",
      401: 'Not signed in',
      403: 'Not an admin',
      413: 'Image over 5 MB',
      503: 'Saved but not yet readable',
    },
    handler: (ctx) => async (req, res) => {
      const raw = (req.body ?? {}) as { carousel?: unknown; sections?: unknown };
      const given = (v: unknown) => v !== undefined && !(req.is('multipart/form-data') && String(v).trim() === '');
      const carousel = given(raw.carousel) ? parseCarousel(jsonField(req, 'carousel', raw.carousel)) : undefined;
      const sections = given(raw.sections) ? { value: jsonField(req, 'sections', raw.sections) } : undefined;
      if (sections && JSON.stringify(sections.value ?? null).length > MAX_SECTIONS_JSON_CHARS)
        throw new ValidationError(`sections can be at most ${MAX_SECTIONS_JSON_CHARS} characters of JSON`);
      const uploads = slideImages(req, carousel);
      // Refuse a bad carousel before any image is written, so a refused save leaves no files behind.
      if (carousel) assertValidCarousel(carousel);
      for (const [index, file] of uploads)
        carousel![index] = { ...carousel![index]!, image: await slideImage(ctx, index, file) };

      const version = await ctx.homepage.configure({ carousel, sections }, req.user!.id);
      if (version > 0)
        await awaitReadable(
          ctx,
          { schema: 'catalog', consumer: HOMEPAGE_PROJECTION },
          { streamId: HOMEPAGE_STREAM, version },
          'Homepage saved, but not yet readable; refresh in a moment',
        );
      res.json({ message: HOMEPAGE_SAVED_MESSAGE, ...(await readHomepage(ctx.pool)) });
    },
  }),
];
