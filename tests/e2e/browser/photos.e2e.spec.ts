import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { photoRenditions, type PhotoRenditions } from '../../../services/shared/src/contracts/photo-renditions.ts';
import { multipartForm } from '@shop/test-support/http';
import { waitUntil } from '@shop/test-support/wait-until';
import { phonePhoto } from '@shop/test-support/photos';
import { useShopAndBrowser, VIEWPORTS } from '../support/browser.ts';

// A 12-megapixel phone photo (about 4 MB, GPS in its EXIF) uploaded by the admin, then the product list in
// Debian's Chromium on a 2x screen: what the card makes the browser download.

const NAME = 'Phone Photo Kurta';
let renditions: PhotoRenditions;

const shop = useShopAndBrowser(async (started) => {
  const r = await fetch(`${started.base}/api/products`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await started.adminToken()}` },
    body: multipartForm({ name: NAME, price: '1499', quantity: '3', category: 'Men' }, [
      { field: 'image', bytes: await phonePhoto(), type: 'image/jpeg', name: 'IMG_0001.jpg' },
    ]),
  });
  expect(r.status).toBe(201);
  renditions = photoRenditions(((await r.json()) as { image: string }).image)!;
  expect(renditions.widths).toEqual([320, 640, 960, 1280, 1600]);
});

/**
 * Whether an image has loaded, asked through the locator (the browser's debugging protocol). A string predicate
 * for page.waitForFunction is compiled in the page when its first check fails, which the shop's CSP refuses
 * ('unsafe-eval' is not allowed): the test failed whenever the photo was not loaded at the first check.
 */
const loaded = (img: { complete: boolean; naturalWidth: number }) => img.complete && img.naturalWidth > 0;

/** Every file of the photo the page finishes downloading, with its body's size. */
function photoDownloads(page: Page): Array<{ url: string; bytes: Promise<number> }> {
  const seen: Array<{ url: string; bytes: Promise<number> }> = [];
  page.on('requestfinished', (request) => {
    if (request.url().includes(`/uploads/${renditions.id}_w`))
      seen.push({ url: request.url(), bytes: request.sizes().then((s) => s.responseBodySize) });
  });
  return seen;
}

describe('a phone photo on a product card', () => {
  it('a 2x screen downloads the card-size WebP rendition only, under 60 KB: never the widest, nor the original', async () => {
    const context = await shop.browser.newContext({
      baseURL: shop.base,
      viewport: VIEWPORTS.desktop,
      deviceScaleFactor: 2,
    });
    try {
      const page = await context.newPage();
      const downloads = photoDownloads(page);
      await page.goto('/products');
      const image = page.getByRole('article', { name: NAME }).locator('img');
      await image.waitFor();
      await waitUntil(() => image.evaluate(loaded), 'the photo to load');
      // the card is 20rem (320 px) wide at most: 640 px on a 2x screen, in WebP
      const card = `${shop.base}${renditions.path(640, 'webp')}`;
      expect(await image.evaluate((img: { currentSrc: string }) => img.currentSrc)).toBe(card);
      expect(downloads.map((d) => d.url)).toEqual([card]);
      expect(await downloads[0]!.bytes).toBeLessThan(60 * 1024);
    } finally {
      await context.close();
    }
  });

  it("a portrait photo is cropped to the card's 4:5 box at both widths, so its card stands as tall as the others", async () => {
    // A 3:4 photo (as a phone held upright takes it) used to stretch its card's image box past 4:5: the box's
    // minimum height followed the photo, and its card stood taller than the rest of the row.
    const portrait = await sharp({ create: { width: 900, height: 1200, channels: 3, background: '#2a9d8f' } })
      .jpeg()
      .toBuffer();
    const r = await fetch(`${shop.base}/api/products`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await shop.adminToken()}` },
      body: multipartForm({ name: 'Portrait Photo Kurta', price: '999', quantity: '3', category: 'Men' }, [
        { field: 'image', bytes: portrait, type: 'image/jpeg', name: 'IMG_0002.jpg' },
      ]),
    });
    expect(r.status).toBe(201);

    for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
      const { context, page } = await shop.visit(viewport);
      try {
        await page.goto('/products');
        await page.getByLabel('Search products').fill('Photo Kurta');
        const portrait = page.getByRole('article', { name: 'Portrait Photo Kurta' }).locator('img');
        await waitUntil(() => portrait.evaluate(loaded), 'the portrait photo to load');
        // Each card's image box (its first link), width and height, the portrait photo's and the landscape one's.
        const boxes = await page.evaluate<Record<string, { width: number; height: number }>>(
          `Object.fromEntries(Array.from(document.querySelectorAll('article'), (card) => {
            const box = card.querySelector('a').getBoundingClientRect();
            return [card.getAttribute('aria-label'), { width: box.width, height: box.height }];
          }))`,
        );
        expect(Object.keys(boxes).sort(), `${viewport.width} px`).toEqual([NAME, 'Portrait Photo Kurta']);
        for (const [name, box] of Object.entries(boxes))
          expect(Math.abs(box.height - (box.width * 5) / 4), `${name} at ${viewport.width} px`).toBeLessThan(1);
      } finally {
        await context.close();
      }
    }
  });
});
