import { z } from 'zod';
import { NotFoundError } from '@shop/shared/errors/errors';
import { routeOf } from '@shop/shared/http/route-table';
import type { ImageStore } from './images.ts';

/** What the photo routes use. */
export type PhotosPorts = { images: ImageStore };

const route = routeOf<PhotosPorts>('catalog');

export const PhotoIdParam = z.object({
  id: z.uuid('Bad photo id: the id in an uploaded image path, /uploads/<id>_w.../'),
});

const TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
};

/** Routes of uploaded photos beyond their renditions (served as files at /uploads): /api/photos/... */
export const PHOTO_ROUTES = [
  route({
    method: 'get',
    path: '/api/photos/:id/original',
    auth: 'admin',
    summary:
      "An uploaded photo's file as it was sent, metadata and all (shoppers get its renditions under /uploads); a download",
    params: PhotoIdParam,
    responses: {
      200: 'The file as uploaded (image/png, image/jpeg, ...), as an attachment',
      400: 'Bad photo id',
      401: 'Not signed in',
      403: 'Not an admin',
      404: 'No such photo (or uploaded before originals were kept)',
    },
    handler:
      (ctx) =>
      async (_req, res, { params: { id } }) => {
        const original = await ctx.images.original(id);
        if (!original) throw new NotFoundError('Photo not found');
        res.setHeader('Cache-Control', 'private, no-store');
        res.attachment(`${id}.${original.ext}`);
        res.type(TYPES[original.ext] ?? 'application/octet-stream');
        await new Promise<void>((resolve, reject) =>
          res.sendFile(original.file, { dotfiles: 'allow' }, (err) => (err ? reject(err) : resolve())),
        );
      },
  }),
];
