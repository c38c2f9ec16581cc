import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { RequestHandler } from 'express';
import multer from 'multer';
import { AppError, ValidationError } from '@shop/shared/errors/errors';
import { PayloadTooLargeError } from '@shop/shared/http/app';
import { assertSafeText } from '@shop/shared/http/safe-text';

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

/** Stores uploaded images under generated names in `dir`; answers their public path (/uploads/...). */
export class ImageStore {
  constructor(private readonly dir: string) {}

  async save(file: { buffer: Buffer }): Promise<string> {
    const ext = imageExtension(file.buffer);
    if (!ext) throw new ValidationError('Only image files are allowed (PNG, JPEG, GIF, WebP or AVIF)');
    await fs.mkdir(this.dir, { recursive: true });
    const name = `${randomUUID()}.${ext}`;
    await fs.writeFile(path.join(this.dir, name), file.buffer, { flag: 'wx' });
    return `/uploads/${name}`;
  }

  /** Writes a file the app itself made (seed images), keeping the name. */
  async saveOwn(relativeName: string, content: string | Buffer): Promise<string> {
    const target = path.join(this.dir, relativeName);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, content);
    return `/uploads/${relativeName.split(path.sep).join('/')}`;
  }
}
