import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ADMIN } from '@shop/test-support/fixtures';
import { atBothWidths, submitLogin, useShopAndBrowser, VIEWPORTS } from '../support/browser.ts';

// Issue 22: (a) Homepage Settings never loses a typed slide: the browser checks what the server refuses
// beside each field (nothing is sent), and a save the server refuses keeps the slides and says why inline
// ('Failed to save' and the reason in plain words); (b) /collections, where a collections home section's
// View All leads: a card per collection whose Shop Now goes to /products?collection={id}.

type Product = { id: string; name: string; image: string };
type Collection = { id: string; name: string; description: string; image: string };

const shop = useShopAndBrowser(curate);
let products: Product[];
let collections: Collection[];
const sectionName = 'Shop by Occasion';

async function curate() {
  const token = await shop.adminToken();
  products = await shop.api<Product[]>('/products');
  const made: Collection[] = [];
  for (const [name, description, members] of [
    ['Wedding Edit', 'Silks and zari for the big day', [products[0]!, products[1]!]],
    ['Office Wear', 'Crisp cottons for the working week', [products[2]!]],
  ] as const) {
    // The first member's picture (a demo product's uploaded image) as the collection's image.
    const image = members[0].image;
    const created = await shop.api<Collection>('/collections', { token, body: { name, description, image } });
    for (const product of members)
      await shop.api(`/collections/${created.id}/products`, { token, body: { productId: product.id } });
    made.push({ id: String(created.id), name, description, image });
  }
  collections = made;
  await shop.api('/home/sections', {
    token,
    body: { name: sectionName, contentType: 'collections', contentIds: [made[0]!.id] },
  });
}

async function loginAsAdmin(page: Page) {
  await page.goto('/login');
  await submitLogin(page, DEFAULT_ADMIN);
  await page.waitForURL((url) => url.pathname === '/admin', { timeout: 15_000 });
}

describe('Homepage Settings: a failed save keeps the typed slide and says why (issue 22 a)', () => {
  it('checks the price in the browser, then shows the server refusal inline with the slide kept', async () => {
    const { context, page } = await shop.visit(VIEWPORTS.desktop);
    await loginAsAdmin(page);
    const saves: Request[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT' && new URL(request.url()).pathname === '/api/home') saves.push(request);
    });

    await page.goto('/admin/home');
    await page.getByText('No slides yet').waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Add Slide' }).click();
    const slide = page.getByRole('group', { name: 'Slide 1' });
    await slide.getByLabel('Name', { exact: true }).fill('Festive Kurta');

    // The browser's check: the price is required; the message stands under the field and nothing is sent.
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await slide.getByText('Price is required', { exact: true }).waitFor();
    expect(await slide.getByLabel('Price (₹)').getAttribute('aria-invalid')).toBe('true');
    expect(saves).toHaveLength(0);
    expect(await slide.getByLabel('Name', { exact: true }).inputValue()).toBe('Festive Kurta');

    // A file that claims to be a PNG but is not an image: only the server can tell, and it refuses.
    await slide.getByLabel('Price (₹)').fill('1299');
    await slide
      .getByLabel('Image file')
      .setInputFiles({ name: 'kurta.png', mimeType: 'image/png', buffer: Buffer.from('not an image') });
    await page.getByRole('button', { name: 'Save Changes' }).click();
    const inline = page.getByRole('form', { name: 'Carousel slides' }).getByRole('alert');
    await inline.getByText('Failed to save', { exact: true }).waitFor({ timeout: 15_000 });
    expect(await inline.textContent()).toContain('Slide 1: Only image files are allowed');
    expect(await inline.textContent()).not.toMatch(/carousel\[/);
    expect(saves).toHaveLength(1);
    await page.getByRole('list', { name: 'Notifications' }).getByText('Failed to save').first().waitFor();

    // Everything typed is still there (the form did not reload to 'No slides yet'), and the message stays.
    await expect.poll(() => page.getByText('No slides yet').count(), { timeout: 2_000 }).toBe(0);
    expect(await slide.getByLabel('Name', { exact: true }).inputValue()).toBe('Festive Kurta');
    expect(await slide.getByLabel('Price (₹)').inputValue()).toBe('1299');
    expect(await inline.count()).toBe(1);
    expect((await shop.api<{ carousel: unknown[] }>('/home')).carousel).toEqual([]);
    await atBothWidths(page, 'admin-home-failed-save', () => inline.waitFor());

    // Without the bad file the same slide saves.
    await slide.getByLabel('Image file').setInputFiles([]);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByRole('list', { name: 'Notifications' }).getByText('Homepage updated').first().waitFor();
    expect((await shop.api<{ carousel: Array<{ name: string; price: number }> }>('/home')).carousel).toEqual([
      expect.objectContaining({ name: 'Festive Kurta', price: 1299 }),
    ]);
    await context.close();
  }, 90_000);
});

describe('/collections (issue 22 b)', () => {
  it("a collections section's View All opens /collections: a card per collection, Shop Now to its products", async () => {
    const { context, page } = await shop.visit(VIEWPORTS.desktop);
    await page.goto('/');
    const section = page.getByRole('region', { name: sectionName });
    await section.waitFor({ timeout: 15_000 });
    await section.getByRole('link', { name: 'View All' }).click();
    await page.waitForURL((url) => url.pathname === '/collections');
    await page.getByRole('heading', { name: 'Collections', level: 1 }).waitFor();

    const cards = page.getByRole('list', { name: 'Collections' }).getByRole('article');
    await expect.poll(() => cards.count(), { timeout: 15_000 }).toBe(collections.length);
    for (const collection of collections) {
      const card = page.getByRole('article', { name: collection.name });
      expect(await card.getByRole('heading', { name: collection.name }).count()).toBe(1);
      expect(await card.getByText(collection.description).count()).toBe(1);
      expect(await card.locator('img').getAttribute('src')).toBe(`${shop.base}${collection.image}`);
      expect(await card.getByRole('link', { name: 'Shop Now' }).getAttribute('href')).toBe(
        `/products?collection=${collection.id}`,
      );
    }

    await atBothWidths(page, 'collections', () => cards.first().waitFor());

    const office = collections[1]!;
    await page.getByRole('article', { name: office.name }).getByRole('link', { name: 'Shop Now' }).click();
    await page.waitForURL((url) => url.pathname === '/products' && url.searchParams.get('collection') === office.id);
    await page.getByText(products[2]!.name, { exact: true }).first().waitFor({ timeout: 15_000 });
    expect(await page.getByText(products[0]!.name, { exact: true }).count()).toBe(0);
    await context.close();
  }, 90_000);
});
