import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photoRenditions, PHOTO_FORMATS } from '@shop/shared/contracts/photo-renditions';
import { multipartForm } from '@shop/test-support/http';
import { startShopWithShopper, type TestShop } from '@shop/test-support/test-shop';
import { PNG_1X1 } from '@shop/test-support/fixtures';
import { hasGpsIfd, PHONE_PHOTO, phonePhoto, pngDeclaring } from '@shop/test-support/photos';
import { MAX_IMAGE_BYTES } from './images.ts';

let shop: TestShop;
let admin: string;
let shopper: string;
beforeAll(async () => {
  ({ shop, admin, shopper } = await startShopWithShopper(
    {},
    { name: 'Ravi', email: 'ravi@example.in', phone: '+919800000002' },
  ));
});
afterAll(() => shop?.stop());

const createProduct = (name: string, image: { bytes: Buffer; type: string; name: string }) =>
  shop.api<{ image: string; message: string }>('POST', '/api/products', {
    token: admin,
    form: multipartForm({ name, price: '1499', quantity: '3' }, [{ field: 'image', ...image }]),
  });

/** The files and folders /uploads serves (none before the first upload). */
const uploaded = () => fs.readdir(path.join(shop.infra.config.DATA_DIR, 'uploads')).catch(() => []);

const download = async (p: string) => {
  const r = await fetch(shop.url + p);
  return { status: r.status, type: r.headers.get('content-type'), bytes: Buffer.from(await r.arrayBuffer()) };
};

describe('uploaded photos', () => {
  it('a 12-MP JPEG with GPS EXIF is served as WebP and JPEG renditions in the stated widths, with no EXIF; a card-size one is under 60 KB; the original is kept for the admin only', async () => {
    const photo = await phonePhoto();
    const sent = await sharp(photo).metadata();
    expect([sent.width, sent.height]).toEqual([PHONE_PHOTO.width, PHONE_PHOTO.height]);
    expect(sent.exif && hasGpsIfd(sent.exif)).toBe(true);
    expect(photo.length).toBeGreaterThan(2 * 1024 * 1024);
    expect(photo.length).toBeLessThanOrEqual(MAX_IMAGE_BYTES);

    const r = await createProduct('Phone Photo Kurta', { bytes: photo, type: 'image/jpeg', name: 'IMG_0001.jpg' });
    expect(r.status).toBe(201);
    // the longest side capped at 1600: 1600 x 1200, at 320, 640, 960, 1280 and its own 1600
    expect(r.body.image).toMatch(/^\/uploads\/[0-9a-f-]{36}_w320-640-960-1280-1600\/1600\.jpg$/);
    const renditions = photoRenditions(r.body.image)!;
    expect(renditions.widths).toEqual([320, 640, 960, 1280, 1600]);

    const sizes: Record<string, number> = {};
    for (const width of renditions.widths)
      for (const format of PHOTO_FORMATS) {
        const served = await download(renditions.path(width, format));
        expect(served.status).toBe(200);
        expect(served.type).toBe(format === 'webp' ? 'image/webp' : 'image/jpeg');
        const meta = await sharp(served.bytes).metadata();
        expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({
          format: format === 'webp' ? 'webp' : 'jpeg',
          width,
          height: (width * 3) / 4,
        });
        expect({ exif: meta.exif, xmp: meta.xmp, icc: meta.icc }).toEqual({
          exif: undefined,
          xmp: undefined,
          icc: undefined,
        });
        sizes[`${width}.${format}`] = served.bytes.length;
      }
    // A card is at most ~20rem wide; on a 2x screen the browser takes the 640 rendition (WebP, JPEG without it).
    expect(sizes['640.webp']).toBeLessThan(60 * 1024);
    expect(sizes['640.jpg']).toBeLessThan(60 * 1024);
    // the product, as the shop lists it, names the renditions' JPEG: never the 4 MB original
    const listed = await shop.api<Array<{ name: string; image: string }>>('GET', '/api/products');
    expect(listed.body.find((p) => p.name === 'Phone Photo Kurta')?.image).toBe(r.body.image);
    expect((await download(r.body.image)).bytes.length).toBe(sizes['1600.jpg']);

    // the original, byte for byte, kept outside what /uploads serves
    const { id } = renditions;
    const originals = path.join(shop.infra.config.DATA_DIR, 'originals');
    expect(await fs.readdir(originals)).toContain(`${id}.jpg`);
    expect((await fs.readFile(path.join(originals, `${id}.jpg`))).equals(photo)).toBe(true);
    expect((await download(`/uploads/${id}.jpg`)).status).toBe(404);
    // no path reaches it (the web app's pages answer paths outside /api and /uploads when it is built)
    for (const outside of [
      `/originals/${id}.jpg`,
      `/uploads/..%2Foriginals/${id}.jpg`,
      `/uploads/%2e%2e/originals/${id}.jpg`,
    ])
      expect((await download(outside)).bytes.equals(photo), outside).toBe(false);
    // ... and the admin's to download, EXIF and all; nobody else's
    const asAdmin = await fetch(`${shop.url}/api/photos/${id}/original`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.headers.get('content-type')).toBe('image/jpeg');
    expect(asAdmin.headers.get('content-disposition')).toBe(`attachment; filename=${id}.jpg`);
    expect(Buffer.from(await asAdmin.arrayBuffer()).equals(photo)).toBe(true);
    expect((await fetch(`${shop.url}/api/photos/${id}/original`)).status).toBe(401);
    const shopperSees = await fetch(`${shop.url}/api/photos/${id}/original`, {
      headers: { authorization: `Bearer ${shopper}` },
    });
    expect(shopperSees.status).toBe(403);
    expect((await shop.api('GET', `/api/photos/${crypto.randomUUID()}/original`, { token: admin })).status).toBe(404);
    expect((await shop.api('GET', '/api/photos/..%2F..%2Fetc%2Fpasswd/original', { token: admin })).status).toBe(400);
  });

  it('a small image is rendered at its own width only, never enlarged', async () => {
    const r = await createProduct('Tiny Swatch', { bytes: PNG_1X1, type: 'image/png', name: 'swatch.png' });
    expect(r.status).toBe(201);
    expect(r.body.image).toMatch(/_w1\/1\.jpg$/);
    for (const format of PHOTO_FORMATS)
      expect((await download(photoRenditions(r.body.image)!.path(1, format))).status).toBe(200);
  });

  it('a malformed image and a decompression bomb are refused 400 with the image-files message, and nothing is written', async () => {
    const before = await shop.db.pool.query('SELECT count(*)::int AS n FROM catalog.events');
    const filesBefore = await uploaded();

    // a JPEG's first bytes, then garbage: it passes the type check by signature, but does not decode
    const jpegStart = (await phonePhoto()).subarray(0, 4096);
    const truncated = Buffer.concat([jpegStart, Buffer.alloc(4096, 0x42)]);
    const malformed = await createProduct('Broken', { bytes: truncated, type: 'image/jpeg', name: 'broken.jpg' });
    expect(malformed).toMatchObject({
      status: 400,
      body: { message: 'Only image files are allowed (PNG, JPEG, GIF, WebP or AVIF)' },
    });
    // a PNG cut off halfway (an upload that broke off)
    const png = await sharp({
      create: {
        width: 256,
        height: 256,
        channels: 3,
        background: '#000',
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .png()
      .toBuffer();
    const cut = await createProduct('Cut', {
      bytes: png.subarray(0, png.length / 2),
      type: 'image/png',
      name: 'cut.png',
    });
    expect(cut).toMatchObject({
      status: 400,
      body: { message: 'Only image files are allowed (PNG, JPEG, GIF, WebP or AVIF)' },
    });

    // 69 bytes declaring 30000 x 30000 (900 megapixels): refused from its header, before any pixel is decoded
    const bomb = pngDeclaring(30_000, 30_000);
    expect((await sharp(bomb, { limitInputPixels: false }).metadata()).width).toBe(30_000);
    const refused = await createProduct('Bomb', { bytes: bomb, type: 'image/png', name: 'bomb.png' });
    expect(refused).toMatchObject({
      status: 400,
      body: {
        message: 'Only image files are allowed of at most 64 megapixels: this one declares 30000 x 30000',
      },
    });

    expect((await shop.db.pool.query('SELECT count(*)::int AS n FROM catalog.events')).rows[0].n).toBe(
      before.rows[0].n,
    );
    expect(await uploaded()).toEqual(filesBefore);
  });
});
