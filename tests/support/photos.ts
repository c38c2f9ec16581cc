import zlib from 'node:zlib';
import sharp from 'sharp';
import { PNG_1X1 } from './fixtures.ts';

/** The size of phonePhoto(): 12 megapixels, 4:3, as a phone's main camera takes them. */
export const PHONE_PHOTO = { width: 4000, height: 3000 } as const;
const { width: W, height: H } = PHONE_PHOTO;

/**
 * A 12-megapixel phone photo: a scene of shapes over a gradient with sensor grain (which makes it weigh
 * what a phone's JPEG does, about 4 MB), its EXIF holding the camera and a GPS position (Bengaluru).
 */
export async function phonePhoto(): Promise<Buffer> {
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const colour = () => `rgb(${[rnd(), rnd(), rnd()].map((c) => Math.floor(c * 255)).join(',')})`;
  const shapes = Array.from({ length: 400 }, () =>
    rnd() < 0.5
      ? `<circle cx="${rnd() * W}" cy="${rnd() * H}" r="${20 + rnd() * 300}" fill="${colour()}" fill-opacity="0.6"/>`
      : `<rect x="${rnd() * W}" y="${rnd() * H}" width="${20 + rnd() * 500}" height="${10 + rnd() * 60}" fill="${colour()}" transform="rotate(${rnd() * 90} ${W / 2} ${H / 2})"/>`,
  ).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#c96"/><stop offset="1" stop-color="#236"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>${shapes}</svg>`;
  const scene = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer();
  const grain = await sharp({
    create: { width: W, height: H, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 12 } },
  })
    .raw()
    .toBuffer();
  for (let i = 0; i < scene.length; i++) scene[i] = Math.max(0, Math.min(255, scene[i]! + grain[i]! - 128));
  return sharp(scene, { raw: { width: W, height: H, channels: 3 } })
    .jpeg({ quality: 90 })
    .withExifMerge({
      IFD0: { Make: 'Phone', Model: 'Camera 12MP' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '12/1 58/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '77/1 35/1 0/1' },
    })
    .toBuffer();
}

/** Whether an EXIF block (as sharp's metadata gives it: 'Exif\0\0' then TIFF) has a GPS IFD (tag 0x8825). */
export function hasGpsIfd(exif: Buffer): boolean {
  const tiff = exif.subarray(6);
  const le = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (at: number) => (le ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const ifd0 = le ? tiff.readUInt32LE(4) : tiff.readUInt32BE(4);
  return Array.from({ length: u16(ifd0) }, (_, i) => u16(ifd0 + 2 + i * 12)).includes(0x8825);
}

/** A valid PNG whose header declares `width` x `height` (a decompression bomb when they are large). */
export function pngDeclaring(width: number, height: number): Buffer {
  const png = Buffer.from(PNG_1X1);
  // IHDR: length (4) at 8, type (4) at 12, data (13) at 16, CRC over type and data at 29
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(zlib.crc32(png.subarray(12, 29)), 29);
  return png;
}
