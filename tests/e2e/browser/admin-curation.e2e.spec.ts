import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { httpClient, type HttpClient } from '@shop/test-support/http';
import { DEFAULT_ADMIN } from '@shop/test-support/fixtures';
import { expectFits, fillLabelled, screenshot, submitLogin, useShopAndBrowser, VIEWPORTS } from '../support/browser.ts';

// Issue 10, Must show (c), the curation part: through the admin screens' forms the admin creates a coupon,
// a collection of two products, a homepage section and a carousel slide, and approves a shopper's
// testimonial; each then shows on the storefront (and in the public API the storefront reads).

// A 1x1 PNG: the server accepts images only, by content.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const png = (name: string) => ({ name, mimeType: 'image/png', buffer: PNG });

let api: HttpClient;
const shop = useShopAndBrowser((started) => {
  api = httpClient(started.base);
});

async function loginAsAdmin(page: Page) {
  await page.goto('/login');
  await submitLogin(page, DEFAULT_ADMIN);
  await page.waitForURL((url) => url.pathname === '/admin', { timeout: 15_000 });
}

/** Waits for a notification with this text (title or message). */
async function expectNotice(page: Page, text: string) {
  await page
    .getByRole('list', { name: 'Notifications' })
    .getByText(text, { exact: true })
    .first()
    .waitFor({ timeout: 15_000 });
}

type Product = { id: string; name: string; price: number };

describe('admin curation through the browser (issue 10, Must show c)', () => {
  it('creates a coupon, a collection, a section and a slide, approves a review, and the storefront shows each', async () => {
    const products = (await api<Product[]>('GET', '/api/products')).body;
    expect(products.length).toBeGreaterThan(2);
    const [first, second, third] = products as [Product, Product, Product];

    // A shopper signs up and submits a review (pending until approved).
    const stamp = Date.now();
    const shopperName = `Asha Curation ${stamp}`;
    const registered = await api<{ token: string }>('POST', '/api/auth/register', {
      body: { name: shopperName, email: `asha.${stamp}@example.in`, phone: '9876543210', password: 'secret123' },
    });
    expect(registered.status).toBe(201);
    const reviewText = `Lovely fabric and quick delivery ${stamp}`;
    const submitted = await api('POST', '/api/testimonials', {
      token: registered.body.token,
      body: { rating: 5, text: reviewText },
    });
    expect(submitted.status).toBe(201);
    expect(JSON.stringify((await api('GET', '/api/testimonials')).body)).not.toContain(reviewText);

    const { context, page } = await shop.visit(VIEWPORTS.desktop);
    await loginAsAdmin(page);

    // Coupon: through the form, then it validates for a shopper.
    await page.goto('/admin/coupons');
    await page.getByText('No coupons found. Create your first coupon!').waitFor();
    await page.getByRole('button', { name: '+ Create Coupon' }).click();
    await page.getByLabel('Coupon Code').fill('curate15');
    expect(await page.getByLabel('Coupon Code').inputValue()).toBe('CURATE15');
    await fillLabelled(page, {
      'Discount Value (%)': '15',
      'Max Discount (₹)': '500',
      'Usage Limit': '5',
      Description: 'Fifteen percent off',
    });
    await page.getByRole('button', { name: 'Create Coupon', exact: true }).click();
    await expectNotice(page, 'Coupon created successfully');
    const couponRow = page.getByRole('row').filter({ hasText: 'CURATE15' });
    await couponRow.waitFor();
    expect(await couponRow.getByText('Active', { exact: true }).count()).toBe(1);
    expect(await couponRow.getByText('0 / 5', { exact: true }).count()).toBe(1);
    expect(await couponRow.getByText('15% off (max ₹500.00)').count()).toBe(1);
    const validated = await api<{ valid: boolean; discountAmount: number }>('POST', '/api/coupons/validate', {
      body: { code: 'curate15', orderTotal: 1000 },
    });
    expect(validated.body).toMatchObject({ valid: true, discountAmount: 150 });

    // Collection: create with an image, add two products from the 'Add product...' dropdown.
    const collectionName = `Festive Edit ${stamp}`;
    await page.goto('/admin/collections');
    // The demo collections a fresh shop starts with are listed.
    await page.getByRole('heading', { name: 'Little Ones' }).waitFor();
    await page.getByLabel('Collection Name').fill(collectionName);
    await page.getByLabel('Description').fill('Kurtas and shirts for the season');
    await page.getByLabel('Collection Image').setInputFiles(png('festive.png'));
    await page.getByRole('button', { name: 'Create Collection' }).click();
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: collectionName }) });
    await card.waitFor({ timeout: 15_000 });
    for (const product of [first, second]) {
      await card.getByLabel('Add product').selectOption({ label: product.name });
      await card.getByRole('button', { name: `Remove ${product.name}` }).waitFor({ timeout: 15_000 });
    }
    // Products already in it are no longer offered.
    const offered = await card.getByLabel('Add product').locator('option').allTextContents();
    expect(offered).not.toContain(first.name);
    expect(offered).toContain(third.name);
    const collections = (
      await api<Array<{ id: string; name: string; image: string; Products: Product[] }>>('GET', '/api/collections')
    ).body;
    const collection = collections.find((c) => c.name === collectionName)!;
    expect(collection.image).toMatch(/^\/uploads\//);
    expect(collection.Products.map((p) => p.name)).toEqual([first.name, second.name]);

    // Homepage section of those two products.
    const sectionName = `Editor's Picks ${stamp}`;
    const sectionsBefore = (await api<unknown[]>('GET', '/api/home/sections')).body.length;
    await page.goto('/admin/homepage-sections');
    await page.getByRole('listitem', { name: 'Shop by Collection' }).waitFor();
    await page.getByRole('button', { name: '+ Create Section' }).click();
    expect(await page.getByLabel('Display Order').inputValue()).toBe(String(sectionsBefore));
    await page.getByLabel('Section Name').fill(sectionName);
    await page.getByLabel(first.name, { exact: true }).check();
    await page.getByLabel(second.name, { exact: true }).check();
    await page.getByText('(2 selected)').waitFor();
    // Switching the type clears the ticks; switching back starts empty.
    await page.getByLabel('Content Type').selectOption('collections');
    await page.getByText('(0 selected)').waitFor();
    await page.getByLabel('Content Type').selectOption('products');
    await page.getByRole('button', { name: 'Create Section', exact: true }).click();
    await page.getByText('Please fill name and select at least one item').first().waitFor();
    await page.getByLabel(first.name, { exact: true }).check();
    await page.getByLabel(second.name, { exact: true }).check();
    await page.getByLabel('Background Colour', { exact: true }).fill('#FFF4E0');
    await page.getByRole('button', { name: 'Create Section', exact: true }).click();
    await expectNotice(page, 'Section created');
    await page.getByRole('listitem', { name: sectionName }).waitFor();
    // The next create defaults its display order to the number of sections.
    await page.getByRole('button', { name: '+ Create Section' }).click();
    expect(await page.getByLabel('Display Order').inputValue()).toBe(String(sectionsBefore + 1));
    await page.getByRole('button', { name: 'Cancel' }).click();
    const sections = (
      await api<Array<{ id: string; name: string; contentIds: string[]; backgroundColor: string }>>(
        'GET',
        '/api/home/sections',
      )
    ).body;
    const section = sections.find((s) => s.name === sectionName)!;
    expect(section).toMatchObject({ contentIds: [String(first.id), String(second.id)], backgroundColor: '#FFF4E0' });

    // Carousel slide with an uploaded image.
    const slideName = `Silk Saree ${stamp}`;
    const slidesBefore = (await api<{ carousel: unknown[] }>('GET', '/api/home')).body.carousel;
    await page.goto('/admin/home');
    await page.getByRole('group', { name: `Slide ${slidesBefore.length}` }).waitFor();
    await page.getByRole('button', { name: 'Add Slide' }).click();
    const slide = page.getByRole('group', { name: `Slide ${slidesBefore.length + 1}` });
    await slide.getByLabel('Name', { exact: true }).fill(slideName);
    await slide.getByLabel('Price (₹)').fill('2499.50');
    await slide.getByLabel('Lining', { exact: true }).fill('Pure silk');
    await slide.getByLabel('Size', { exact: true }).fill('Free size');
    await slide.getByLabel('Height', { exact: true }).fill('5 ft 6 in');
    await slide.getByLabel('Image file').setInputFiles(png('saree.png'));
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expectNotice(page, 'Homepage updated');
    await expectNotice(page, 'Homepage configuration has been saved successfully');
    const home = (
      await api<{ carousel: Array<{ name: string; price: number; image: string; lining: string }> }>('GET', '/api/home')
    ).body;
    expect(home.carousel).toEqual([
      ...slidesBefore,
      expect.objectContaining({
        name: slideName,
        price: 2499.5,
        lining: 'Pure silk',
        image: expect.stringMatching(/^\/uploads\//),
      }),
    ]);

    // Approve the shopper's testimonial.
    await page.goto('/admin/testimonials');
    await page
      .getByRole('heading', { name: 'Testimonials' })
      .waitFor()
      .catch(async (error: unknown) => {
        await screenshot(page, 'admin-curation-failure');
        throw error;
      });
    const review = page.getByRole('listitem').filter({ hasText: reviewText });
    await review.waitFor();
    expect(await review.getByRole('button', { name: 'Reject' }).count()).toBe(1);
    await review.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => review.getByRole('button', { name: 'Approve' }).count(), { timeout: 15_000 }).toBe(0);
    expect(await review.getByText('approved', { exact: true }).count()).toBe(1);
    const approved = (await api<Array<{ text: string; User: { name: string } }>>('GET', '/api/testimonials')).body;
    expect(approved).toContainEqual(expect.objectContaining({ text: reviewText, User: { name: shopperName } }));
    await context.close();

    // The storefront, as a new visitor: the collection's products under /products?collection=.
    const visitor = await shop.visit(VIEWPORTS.desktop);
    await visitor.page.goto(`/products?collection=${encodeURIComponent(collection.id)}`);
    await visitor.page.getByText(first.name, { exact: true }).first().waitFor({ timeout: 15_000 });
    await visitor.page.getByText(second.name, { exact: true }).first().waitFor();
    expect(await visitor.page.getByText(third.name, { exact: true }).count()).toBe(0);

    // The home page: slide, collection, section and testimonial.
    await visitor.page.goto('/');
    for (const text of [slideName, collectionName, sectionName, reviewText]) {
      await visitor.page.getByText(text).first().waitFor({ state: 'attached', timeout: 15_000 });
    }

    // The coupon in the checkout's coupon box.
    await visitor.page.goto('/products');
    await visitor.page.getByRole('button', { name: 'Add to Cart' }).first().click();
    await visitor.page.goto('/checkout');
    await visitor.page.getByLabel('Coupon code').fill('curate15');
    await visitor.page.getByRole('button', { name: 'Apply' }).click();
    await expectNotice(visitor.page, 'Coupon applied!');
    await visitor.page.getByRole('group', { name: 'Applied coupon' }).getByText('CURATE15').waitFor();
    await visitor.context.close();
  }, 180_000);

  it('saves delivery settings through the form and the delivery quote follows them', async () => {
    const { context, page } = await shop.visit(VIEWPORTS.desktop);
    await loginAsAdmin(page);
    await page.goto('/admin/delivery-settings');
    await page.getByText('How it works').waitFor({ timeout: 15_000 });
    expect(await page.getByLabel('Delivery Charge (₹)').inputValue()).toBe('50.00');
    await page.getByLabel('Delivery Charge (₹)').fill('60');
    await page.getByLabel('Free Delivery Threshold (₹)').fill('799.50');
    await page.getByText('Delivery: free on orders of ₹799.50 or more, otherwise ₹60.00.').waitFor();
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expectNotice(page, 'Settings updated successfully');
    const quote = await api<{ deliveryCharge: number }>('POST', '/api/delivery/calculate', {
      body: { orderTotal: 700 },
    });
    expect(quote.body.deliveryCharge).toBe(60);
    expect(
      (await api<{ deliveryCharge: number }>('POST', '/api/delivery/calculate', { body: { orderTotal: 799.5 } })).body
        .deliveryCharge,
    ).toBe(0);
    await context.close();
  }, 60_000);

  for (const [label, viewport] of Object.entries(VIEWPORTS)) {
    it(`shows the curation screens at ${viewport.width} px without sideways scrolling (${label})`, async () => {
      const { context, page } = await shop.visit(viewport);
      await loginAsAdmin(page);
      const screens: Array<[string, string, string]> = [
        ['/admin/coupons', 'admin-coupons', 'CURATE15'],
        ['/admin/collections', 'admin-collections', 'Festive Edit'],
        ['/admin/homepage-sections', 'admin-homepage-sections', "Editor's Picks"],
        ['/admin/home', 'admin-home', 'Slide 1'],
        ['/admin/testimonials', 'admin-testimonials', 'Lovely fabric'],
        ['/admin/delivery-settings', 'admin-delivery-settings', 'How it works'],
      ];
      for (const [path, name, marker] of screens) {
        await page.goto(path);
        await page.getByText(marker).first().waitFor({ timeout: 15_000 });
        await expectFits(page, name);
      }
      await context.close();
    }, 120_000);
  }
});
