import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { RequestHandler } from 'express';
import multer from 'multer';
import sharp, { type Metadata } from 'sharp';
import { AppError, ValidationError } from '@shop/shared/errors/errors';
import { PayloadTooLargeError } from '@shop/shared/http/app';
import { assertSafeText } from '@shop/shared/http/safe-text';
import {
  PHOTO_FORMATS,
  PHOTO_MAX_SIDE,
  photoImagePath,
  renditionFolder,
  renditionWidths,
} from '@shop/shared/contracts/photo-renditions';

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** The most one text field of a form may hold (the home page's sections JSON is the largest). */
export const MAX_FORM_FIELD_BYTES = 1024 * 1024;
/** Room in a form for its text fields and the multipart framing, beside its images. */
const FORM_FIELDS_ALLOWANCE_BYTES = 2 * 1024 * 1024;

/** Image types accepted for upload, recognised by their first bytes (never by name or claimed type). */
const SIGNATURES: Array<{ ext: string; test: (b: Buffer) => boolean }> = [
  { ext: 'png', test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { ext: 'jpg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  {
    ext: 'gif',
    test: (b) => b.subarray(0, 6).toString('latin1') === 'GIF87a' || b.subarray(0, 6).toString('latin1') === 'GIF89a',
  },
  {
    ext: 'webp',
    test: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
  { ext: 'avif', test: (b) => b.subarray(4, 12).toString('latin1') === 'ftypavif' },
];

export function imageExtension(bytes: Buffer): string | null {
  return SIGNATURES.find((s) => s.test(bytes))?.ext ?? null;
}

/** Multer for one optional `image` file held in memory, size-limited; other files are refused. */
export const imageUpload = multer({
  storage: multer.memoryStorage(),
  limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 50, fieldSize: MAX_FORM_FIELD_BYTES },
  fileFilter: (_req, file, cb) => {
    if (!file.mimetype.startsWith('image/')) return cb(new ValidationError('Only image files are allowed'));
    cb(null, true);
  },
});

/**
 * The product form (multipart/form-data, or JSON): one optional `image` file through multer. A multipart
 * body busboy cannot read (no boundary, cut short, not multipart at all) is a 400 saying so, not a 500;
 * text fields holding NUL or lone surrogates are refused naming the field, as JSON bodies are at the edge.
 */
export function productFormParser(): RequestHandler {
  return formParser(imageUpload.single('image'), 1);
}

/**
 * A form with one optional image per numbered slot, named `<prefix>0` up to `<prefix><slots-1>` (the home
 * page carousel's `image0`, `image1`, ...), as the product form: images only, each MAX_IMAGE_BYTES at most,
 * held in memory; a file under any other name is refused naming it.
 */
export function numberedImagesFormParser(prefix: string, slots: number): RequestHandler {
  const numbered = new RegExp(`^${prefix}(0|[1-9]\\d*)$`);
  const upload = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: MAX_IMAGE_BYTES, files: slots, fields: 50, fieldSize: MAX_FORM_FIELD_BYTES },
    fileFilter: (_req, file, cb) => {
      const slot = numbered.exec(file.fieldname);
      if (!slot || Number(slot[1]) >= slots)
        return cb(
          new ValidationError(
            `Unexpected file field ${file.fieldname}: images go in ${prefix}0 to ${prefix}${slots - 1}, one per slide`,
          ),
        );
      if (!file.mimetype.startsWith('image/')) return cb(new ValidationError('Only image files are allowed'));
      cb(null, true);
    },
  });
  return formParser(upload.any(), slots);
}

/**
 * Runs a multer handler; malformed bodies and unsafe text in the fields become 400s. A body whose
 * Content-Length is more than `images` full-size images and the fields could be is refused 413 before it
 * is read; multer's own limits (each image, each field) hold for a body sent without one (chunked).
 */
function formParser(upload: RequestHandler, images: number): RequestHandler {
  const maxBytes = images * MAX_IMAGE_BYTES + FORM_FIELDS_ALLOWANCE_BYTES;
  return (req, res, next) => {
    if (req.is('multipart/form-data') && Number(req.headers['content-length'] ?? 0) > maxBytes)
      return next(
        new PayloadTooLargeError(
          `Request body too large: a form may hold at most ${images} image${images === 1 ? '' : 's'} of ${MAX_IMAGE_BYTES / 1024 / 1024} MB each and its fields`,
        ),
      );
    upload(req, res, (err?: unknown) => {
      if (err) return next(uploadError(err));
      try {
        assertSafeText(req.body);
        next();
      } catch (e) {
        next(e);
      }
    });
  };
}

/**
 * Multer's own limits (LIMIT_*) and our refusals pass through; anything else (busboy failing to parse, or
 * multer's MISSING_FIELD_NAME for a part without a name) is a malformed form.
 */
function uploadError(err: unknown): unknown {
  if (err instanceof AppError || (err instanceof multer.MulterError && err.code.startsWith('LIMIT_'))) return err;
  const reason = err instanceof Error ? err.message.replace(/^Multipart: /, '') : String(err);
  return new ValidationError(
    `Malformed multipart/form-data body (${reason}): send the fields as a complete multipart form with a boundary, or as JSON with Content-Type application/json`,
  );
}

/**
 * The most pixels an upload may declare (64 megapixels, e.g. 9248 x 6936): more is refused before it is decoded,
 * so a small file declaring a huge image (a decompression bomb) never reaches the decoder.
 */
export const MAX_IMAGE_PIXELS = 64_000_000;
const NOT_AN_IMAGE = 'Only image files are allowed (PNG, JPEG, GIF, WebP or AVIF)';
/** Rendition quality: a 640-wide card photo stays well under 60 KB. */
const QUALITY = { webp: 72, jpg: 78 } as const;

/**
 * Uploaded photos: each is decoded and re-encoded with sharp into WebP and JPEG renditions at the widths of
 * the naming rule (@shop/shared/contracts/photo-renditions), its longest side capped, upright, in sRGB and
 * with no metadata (EXIF, GPS, XMP, ICC all dropped); they are written under `dir` (served at /uploads) before
 * the image path naming them is answered, so the event recording it records files that exist. The file as
 * sent is kept under `originalsDir`, which is not served: it is the admin's, never a shopper's download.
 * A file that is not a readable PNG, JPEG, GIF, WebP or AVIF, or declares more than MAX_IMAGE_PIXELS, is refused.
 */
export class ImageStore {
  constructor(
    private readonly dir: string,
    private readonly originalsDir: string,
  ) {}

  async save(file: { buffer: Buffer }): Promise<string> {
    const ext = imageExtension(file.buffer);
    if (!ext) throw new ValidationError(NOT_AN_IMAGE);
    const upright = await readable(file.buffer);
    const widths = renditionWidths(upright.width, upright.height);
    const id = randomUUID();
    const renditions = await renditionsOf(upright, widths);
    await fs.mkdir(this.originalsDir, { recursive: true });
    await fs.writeFile(path.join(this.originalsDir, `${id}.${ext}`), file.buffer, { flag: 'wx' });
    const folder = path.join(this.dir, renditionFolder(id, widths));
    await fs.mkdir(folder, { recursive: true });
    for (const r of renditions) await fs.writeFile(path.join(folder, r.name), r.data, { flag: 'wx' });
    return photoImagePath(id, widths);
  }

  /** Photo `id`'s file as it was uploaded (its id is in its image path, `/uploads/<id>_w...`), or null. */
  async original(id: string): Promise<{ file: string; ext: string } | null> {
    for (const { ext } of SIGNATURES) {
      const file = path.resolve(this.originalsDir, `${id}.${ext}`);
      const found = await fs.stat(file).catch(() => null);
      if (found?.isFile()) return { file, ext };
    }
    return null;
  }

  /** Writes a file the app itself made (seed images), keeping the name. */
  async saveOwn(relativeName: string, content: string | Buffer): Promise<string> {
    const target = path.join(this.dir, relativeName);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, content);
    return `/uploads/${relativeName.split(path.sep).join('/')}`;
  }
}

/** A decoded upload, turned upright (EXIF orientation applied) and capped at PHOTO_MAX_SIDE, as raw pixels. */
interface Upright {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

/**
 * Decodes an upload once: its header first (refusing more than MAX_IMAGE_PIXELS before any pixel is
 * decoded), then its pixels, where a corrupt or truncated file fails (failOn 'truncated': a harmless decoder
 * warning, as some phones' JPEGs give, does not refuse a photo that decodes).
 */
async function readable(bytes: Buffer): Promise<Upright> {
  const options = { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'truncated' } as const;
  let declared: Metadata;
  try {
    // the header only (no pixel is decoded), so the declared size can be refused naming it
    declared = await sharp(bytes, { ...options, limitInputPixels: false }).metadata();
  } catch {
    throw new ValidationError(NOT_AN_IMAGE);
  }
  const { width = 0, height = 0 } = declared;
  if (width * height > MAX_IMAGE_PIXELS)
    throw new ValidationError(
      `Only image files are allowed of at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels: this one declares ${width} x ${height}`,
    );
  try {
    const { data, info } = await sharp(bytes, options)
      .rotate()
      .resize({ width: PHOTO_MAX_SIDE, height: PHOTO_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, channels: info.channels };
  } catch {
    throw new ValidationError(NOT_AN_IMAGE);
  }
}

/** The renditions of an upright photo: `<width>.webp` and `<width>.jpg` for each width (JPEG on white). */
async function renditionsOf(
  upright: Upright,
  widths: readonly number[],
): Promise<Array<{ name: string; data: Buffer }>> {
  const out: Array<{ name: string; data: Buffer }> = [];
  for (const width of widths) {
    const resized = () =>
      sharp(upright.data, { raw: { width: upright.width, height: upright.height, channels: upright.channels } }).resize(
        {
          width: Math.min(width, upright.width),
        },
      );
    for (const format of PHOTO_FORMATS) {
      const data =
        format === 'webp'
          ? await resized().webp({ quality: QUALITY.webp }).toBuffer()
          : await resized().flatten({ background: '#ffffff' }).jpeg({ quality: QUALITY.jpg, mozjpeg: true }).toBuffer();
      out.push({ name: `${width}.${format}`, data });
    }
  }
  return out;
}
