import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ADMIN } from '@shop/test-support/fixtures';
import { atBothWidths, expectFits, submitLogin, useShopAndBrowser, VIEWPORTS } from '../support/browser.ts';

// Issue 22: (a) Homepage Settings never loses a typed slide: the browser checks what the server refuses
// beside each field (nothing is sent), and a save the server refuses keeps the slides and says why inline
// ('Failed to save' and the reason in plain words); (b) /collections, where a collections home section's
// View All leads: a card per collection whose Shop Now goes to /products?collection={id}; (c) the product list
// at 375 px (search box, one-line buttons, names of at most 2 lines) and dashboard figures that never wrap;
// (d) a fresh install looks like a store: demo carousel, collections, a homepage section and approved reviews.

type Product = { id: string; name: string; image: string };
type Collection = { id: string; name: string; description: string; image: string };

const shop = useShopAndBrowser(curate);
let products: Product[];
/** Every collection: the three the first start seeds, then the two made here. */
let collections: Collection[];
const sectionName = 'Shop by Occasion';
// In-page functions, handed to evaluate whole (they run in the page, so they use nothing from this file; they reach
// the document through the element, as this file is type-checked for Node, without the DOM globals).
type InPageElement = {
  ownerDocument: {
    createRange(): { selectNodeContents(el: unknown): void; getClientRects(): ArrayLike<{ top: number }> };
    createElement(tag: 'canvas'): { getContext(kind: '2d'): { font: string; measureText(t: string): { width: number } } };
    defaultView: {
      getComputedStyle(el: unknown): { font: string; lineHeight: string; paddingLeft: string; paddingRight: string };
    };
  };
  getBoundingClientRect(): { height: number };
  placeholder?: string;
  clientWidth: number;
  scrollWidth: number;
};
/** How many lines an element's text takes on screen. */
const linesOf = (el: InPageElement) => {
  const range = el.ownerDocument.createRange();
  range.selectNodeContents(el);
  return new Set(Array.from(range.getClientRects(), (rect) => Math.round(rect.top))).size;
};
/** How many lines of its line height an element's box is tall (a clamped text's visible lines). */
const visibleLinesOf = (el: InPageElement) =>
  el.getBoundingClientRect().height / parseFloat(el.ownerDocument.defaultView.getComputedStyle(el).lineHeight);
/** Whether an input's placeholder fits inside it, padding included. */
const placeholderFits = (el: InPageElement) => {
  const style = el.ownerDocument.defaultView.getComputedStyle(el);
  const context = el.ownerDocument.createElement('canvas').getContext('2d');
  context.font = style.font;
  const width = context.measureText(el.placeholder ?? '').width;
  return width + parseFloat(style.paddingLeft) + parseFloat(style.paddingRight) <= el.clientWidth;
};
const LONG_NAME =
  'Hand Block Printed Pure Cotton Anarkali Kurta with Mirror Work Yoke, Tassel Ties and Matching Palazzo Set';

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
  collections = (await shop.api<Collection[]>('/collections')).map((c) => ({ ...c, id: String(c.id) }));
  expect(collections.slice(-2).map((c) => c.name)).toEqual(made.map((c) => c.name));
  await shop.api('/home/sections', {
    token,
    body: { name: sectionName, contentType: 'collections', contentIds: [made[0]!.id] },
  });
  await shop.api('/products', { token, body: { name: LONG_NAME, price: 2899, quantity: 4, category: 'Women' } });
}


async function loginAsAdmin(page: Page) {
  await page.goto('/login');
  await submitLogin(page, DEFAULT_ADMIN);
  await page.waitForURL((url) => url.pathname === '/admin', { timeout: 15_000 });
}

describe('a fresh install looks like a store (issue 22 d)', () => {
  it('shows the demo carousel, the demo collections and their section, and approved reviews on the home page', async () => {
    const home = (await shop.api<{ carousel: Array<{ name: string; price: number; image: string; size: string }> }>('/home'))
      .carousel;
    expect(home.map((s) => s.name)).toEqual(['Mustard Kanjivaram Saree', 'Floral Anarkali Kurta', 'Navy Nehru Jacket']);
    expect(home[0]).toMatchObject({ size: 'Free Size', image: expect.stringMatching(/^\/uploads\/seed\//) });
    const demo = collections.slice(0, 3);
    expect(demo.map((c) => c.name)).toEqual(['Festive Season', 'Everyday Cotton', 'Little Ones']);
    const sections = await shop.api<Array<{ name: string; contentType: string; contentIds: string[] }>>('/home/sections');
    expect(sections[0]).toMatchObject({
      name: 'Shop by Collection',
      contentType: 'collections',
      contentIds: demo.map((c) => c.id),
    });
    const reviews = await shop.api<Array<{ text: string; User: { name: string } }>>('/testimonials');
    expect(reviews.map((r) => r.User.name).sort()).toEqual(['Arjun Mehta', 'Kavya Nair', 'Priya Sharma']);
    // Sizes that fit the kind: a saree in Free Size, kidswear by age.
    const saree = products.find((p) => p.name === 'Mustard Kanjivaram Saree') as unknown as {
      sizeQuantities: Record<string, number>;
    };
    expect(Object.keys(saree.sizeQuantities)).toEqual(['Free Size']);

    const { context, page } = await shop.visit(VIEWPORTS.desktop);
    await page.goto('/');
    await page
      .getByRole('region', { name: 'Featured styles' })
      .getByRole('heading', { name: 'Mustard Kanjivaram Saree' })
      .waitFor({ timeout: 15_000 });
    await page.getByRole('region', { name: 'Shop by Collection' }).getByText('Little Ones').waitFor();
    await page.getByText(reviews[0]!.text).waitFor();
    // Pictures are lazy: load every one before the full-page screenshots.
    const allImagesLoaded = () =>
      page.evaluate(
        `Promise.all(Array.from(document.images, (img) => { img.loading = 'eager'; return img.complete ? null : new Promise((done) => { img.onload = img.onerror = done; }); }))`,
      );
    await atBothWidths(page, 'home-fresh-install', allImagesLoaded);
    await context.close();
  }, 60_000);
});

describe('Homepage Settings: a failed save keeps the typed slide and says why (issue 22 a)', () => {
  it('checks the price in the browser, then shows the server refusal inline with the slide kept', async () => {
    const { context, page } = await shop.visit(VIEWPORTS.desktop);
    await loginAsAdmin(page);
    const saves: Request[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT' && new URL(request.url()).pathname === '/api/home') saves.push(request);
    });

    await page.goto('/admin/home');
    const seeded = (await shop.api<{ carousel: Array<{ name: string }> }>('/home')).carousel;
    await page.getByRole('group', { name: `Slide ${seeded.length}` }).waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Add Slide' }).click();
    const number = seeded.length + 1;
    const slide = page.getByRole('group', { name: `Slide ${number}` });
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
    expect(await inline.textContent()).toContain(`Slide ${number}: Only image files are allowed`);
    expect(await inline.textContent()).not.toMatch(/carousel\[/);
    expect(saves).toHaveLength(1);
    await page.getByRole('list', { name: 'Notifications' }).getByText('Failed to save').first().waitFor();

    // Everything typed is still there (the form did not reload to 'No slides yet'), and the message stays.
    await expect.poll(() => page.getByText('No slides yet').count(), { timeout: 2_000 }).toBe(0);
    expect(await slide.getByLabel('Name', { exact: true }).inputValue()).toBe('Festive Kurta');
    expect(await slide.getByLabel('Price (₹)').inputValue()).toBe('1299');
    expect(await inline.count()).toBe(1);
    expect((await shop.api<{ carousel: unknown[] }>('/home')).carousel).toEqual(seeded);
    for (const [index, { name }] of seeded.entries())
      expect(await page.getByRole('group', { name: `Slide ${index + 1}` }).getByLabel('Name', { exact: true }).inputValue()).toBe(name);
    await atBothWidths(page, 'admin-home-failed-save', () => inline.waitFor());

    // Without the bad file the same slide saves.
    await slide.getByLabel('Image file').setInputFiles([]);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByRole('list', { name: 'Notifications' }).getByText('Homepage updated').first().waitFor();
    expect((await shop.api<{ carousel: Array<{ name: string; price: number }> }>('/home')).carousel).toEqual([
      ...seeded,
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

    const office = collections.find((c) => c.name === 'Office Wear')!;
    await page.getByRole('article', { name: office.name }).getByRole('link', { name: 'Shop Now' }).click();
    await page.waitForURL((url) => url.pathname === '/products' && url.searchParams.get('collection') === office.id);
    await page.getByText(products[2]!.name, { exact: true }).first().waitFor({ timeout: 15_000 });
    expect(await page.getByText(products[0]!.name, { exact: true }).count()).toBe(0);
    await context.close();
  }, 90_000);
});

describe('phone and desktop layouts (issue 22 c)', () => {
  it('the product list at 375 px: a usable search box, one-line buttons, long names clamped to 2 lines', async () => {
    const { context, page } = await shop.visit(VIEWPORTS.phone);
    await page.goto('/products');
    const card = page.getByRole('article', { name: LONG_NAME });
    await card.waitFor({ timeout: 15_000 });
    // The search box shows its whole placeholder ('Search products...', it was cut to 'Searc').
    const search = page.getByRole('searchbox', { name: 'Search products' });
    expect(await search.evaluate(placeholderFits as unknown as () => boolean), 'placeholder fits').toBe(true);
    for (const button of ['Add to Cart', 'Buy Now']) {
      const lines = await card.getByRole('button', { name: button }).evaluate(linesOf as unknown as () => number);
      expect(lines, `${button} on one line`).toBe(1);
    }
    const name = card.getByRole('heading', { name: LONG_NAME });
    expect(await name.evaluate(linesOf as unknown as () => number), 'the name is long').toBeGreaterThan(2);
    const visible = await name.evaluate(visibleLinesOf as unknown as () => number);
    expect(visible, 'the name shows at most 2 lines').toBeLessThanOrEqual(2.05);
    expect(await card.getByRole('link', { name: LONG_NAME }).getAttribute('title')).toBe(LONG_NAME);
    await search.fill('Anarkali Kurta with Mirror');
    await expect.poll(() => page.getByRole('article').count(), { timeout: 15_000 }).toBe(1);
    await search.fill('');
    await expectFits(page, 'product-list-long-name');

    // Wherever cards are narrow (two a row at 375 px, five a row on the home page at 1440 px), each button stays
    // on one line inside its card.
    for (const viewport of [VIEWPORTS.phone, VIEWPORTS.desktop]) {
      await page.setViewportSize(viewport);
      for (const path of ['/', '/products']) {
        await page.goto(path);
        const first = page.getByRole('article').filter({ has: page.getByRole('button', { name: 'Buy Now' }) }).first();
        await first.waitFor({ timeout: 15_000 });
        const cardBox = (await first.boundingBox())!;
        for (const name of ['Add to Cart', 'Buy Now']) {
          const button = first.getByRole('button', { name });
          const box = (await button.boundingBox())!;
          expect(box.x + box.width, `${name} inside its card on ${path} at ${viewport.width} px`).toBeLessThanOrEqual(
            cardBox.x + cardBox.width,
          );
          expect(await button.evaluate(linesOf as unknown as () => number), `${name} on one line`).toBe(1);
        }
      }
    }
    await context.close();
  }, 60_000);

  it('keeps every dashboard figure on one line at 1440 and 375 px, even a crore of revenue', async () => {
    const { context, page } = await shop.visit(VIEWPORTS.desktop);
    await loginAsAdmin(page);
    const figures = page.getByRole('definition');
    await page.getByRole('group', { name: 'Total Revenue' }).waitFor({ timeout: 15_000 });
    for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
      await page.setViewportSize(viewport);
      // The longest figure the dashboard shows: revenue past a crore, in Indian grouping with paise.
      await page
        .getByRole('group', { name: 'Total Revenue' })
        .locator('dd')
        .evaluate((el, text) => void (el.textContent = text), '₹1,04,19,567.50');
      for (let i = 0; i < (await figures.count()); i += 1) {
        const figure = figures.nth(i);
        const lines = await figure.evaluate(linesOf as unknown as () => number);
        const overflow = await figure.evaluate((el) => el.scrollWidth - el.clientWidth);
        const text = await figure.textContent();
        expect(lines, `${text} at ${viewport.width} px on one line`).toBe(1);
        expect(overflow, `${text} at ${viewport.width} px inside its tile`).toBeLessThanOrEqual(0);
      }
      await expectFits(page, 'admin-dashboard-long-revenue');
    }
    await context.close();
  }, 60_000);
});
