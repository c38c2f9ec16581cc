import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartForm } from '@shop/test-support/http';
import { startShopWithShopper, type TestShop } from '@shop/test-support/test-shop';
import { PNG_1X1 as PNG } from '@shop/test-support/fixtures';
import type { HomepageView } from '../read-models/homepage/homepage-queries.ts';

type Home = HomepageView & { message?: string };


let shop: TestShop;
let admin: string;
let shopper: string;
beforeAll(async () => {
  ({ shop, admin, shopper } = await startShopWithShopper({}, { name: 'Ravi', email: 'ravi@example.in', phone: '+919800000002' }));
});
afterAll(() => shop?.stop());

const kurta = { name: 'Festive Kurta', price: 1499, lining: 'Cotton', size: 'M', height: '5ft 8in' };
const saree = {
  name: 'Silk Saree',
  price: 4999.5,
  image: 'https://cdn.example.in/saree.jpg',
  lining: 'Silk',
  size: 'Free',
  height: '5ft 5in',
};

const home = async () => (await shop.api<Home>('GET', '/api/home')).body;
const putJson = (body: unknown, token = admin) =>
  shop.api<Home & { message: string }>('PUT', '/api/home', { token, body });
const form = multipartForm;
const putForm = (f: FormData, token = admin) =>
  shop.api<Home & { message: string }>('PUT', '/api/home', { token, form: f });
const homepageEvents = async () =>
  (await shop.db.pool.query(`SELECT count(*)::int AS n FROM catalog.events WHERE stream_id = 'homepage'`)).rows[0]
    .n as number;

describe('GET and PUT /api/home', () => {
  it('answers {carousel: []} before an admin saved anything', async () => {
    expect(await shop.api('GET', '/api/home')).toEqual({ status: 200, body: { carousel: [] } });
  });

  it('PUT /api/home answers 401 without a token and 403 for a shopper, and changes nothing', async () => {
    expect((await putJson({ carousel: [kurta] }, '')).status).toBe(401);
    expect((await putJson({ carousel: [kurta] }, shopper)).status).toBe(403);
    expect((await putForm(form({ carousel: JSON.stringify([kurta]) }), shopper)).status).toBe(403);
    expect(await home()).toEqual({ carousel: [] });
  });

  it('saves the carousel and sections from a JSON body; GET answers them (prices in rupees, sections as given)', async () => {
    const sections = [{ title: 'Diwali edit', productIds: ['p1', 'p2'], style: { bold: true } }];
    const r = await putJson({ carousel: [kurta, saree], sections });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('Homepage configuration has been saved successfully');
    const expected = { carousel: [{ ...kurta, image: '' }, saree], sections };
    expect(r.body).toMatchObject(expected);
    expect(await home()).toEqual(expected);
    const { rows } = await shop.db.pool.query(
      `SELECT type, data FROM catalog.events WHERE stream_id = 'homepage' ORDER BY stream_version DESC LIMIT 1`,
    );
    expect(rows[0]).toMatchObject({
      type: 'HomepageConfigured',
      data: { carousel: [{ name: 'Festive Kurta', pricePaise: 149_900 }, { pricePaise: 499_950 }], sections },
    });
  });

  it('keeps the part left out: a carousel-only save keeps the sections; a sections-only save keeps the carousel', async () => {
    const before = await home();
    await putJson({ carousel: [saree] });
    expect(await home()).toEqual({ carousel: [saree], sections: before.sections });
    await putJson({ sections: { layout: 'grid' } });
    expect(await home()).toEqual({ carousel: [saree], sections: { layout: 'grid' } });
    // the same save again records nothing new
    const n = await homepageEvents();
    expect((await putJson({ carousel: [saree], sections: { layout: 'grid' } })).status).toBe(200);
    expect(await homepageEvents()).toBe(n);
  });

  it('takes the seed multipart form: image0 replaces slide 0 image, served at its /uploads path; slide 1 keeps its URL', async () => {
    const r = await putForm(
      form({ carousel: JSON.stringify([{ ...kurta, image: 'https://old.example.in/k.jpg' }, saree]), sections: '[]' }, [
        { field: 'image0', bytes: PNG, type: 'image/png', name: 'kurta.png' },
      ]),
    );
    expect(r.status).toBe(200);
    const [first, second] = (await home()).carousel;
    expect(first).toMatchObject({ ...kurta, image: expect.stringMatching(/^\/uploads\/[\w-]+_w1\/1\.jpg$/) });
    expect(second).toEqual(saree);
    expect((await home()).sections).toEqual([]);
    const served = await fetch(shop.url + first!.image);
    expect(served.status).toBe(200);
    // the slide's photo re-encoded (photo renditions), its WebP beside it
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    expect((await fetch(shop.url + first!.image.replace(/\.jpg$/, '.webp'))).headers.get('content-type')).toBe(
      'image/webp',
    );
  });

  it('refuses non-images (400), images over 5 MB (413) and files for no slide (400), saving nothing', async () => {
    const before = await home();
    const n = await homepageEvents();
    const carousel = JSON.stringify([kurta, saree]);
    const refusals: Array<[FormData, number, RegExp]> = [
      [
        form({ carousel }, [{ field: 'image0', bytes: PNG, type: 'text/html', name: 'x.html' }]),
        400,
        /Only image files/,
      ],
      [
        form({ carousel }, [
          { field: 'image1', bytes: Buffer.from('<script>1</script>'), type: 'image/png', name: 'x.png' },
        ]),
        400,
        /^Slide 2: Only image files/,
      ],
      [
        form({ carousel }, [
          { field: 'image0', bytes: Buffer.alloc(6 * 1024 * 1024, 0x89), type: 'image/png', name: 'big.png' },
        ]),
        413,
        /Image too large/,
      ],
      [
        form({ carousel }, [{ field: 'image2', bytes: PNG, type: 'image/png', name: 'x.png' }]),
        400,
        /^image2 has no slide/,
      ],
      [
        form({ carousel }, [{ field: 'photo', bytes: PNG, type: 'image/png', name: 'x.png' }]),
        400,
        /Unexpected file field photo/,
      ],
      [
        form({ carousel: JSON.stringify([{ ...kurta, name: '' }]) }, [
          { field: 'image0', bytes: PNG, type: 'image/png', name: 'x.png' },
        ]),
        400,
        /Slide 1: Name is required/,
      ],
    ];
    for (const [f, status, message] of refusals) {
      const r = await putForm(f);
      expect(r.status, String(message)).toBe(status);
      expect(r.body.message).toMatch(message);
    }
    expect(await home()).toEqual(before);
    expect(await homepageEvents()).toBe(n);
  });

  it('answers 400 naming the slide in plain words for bad slides, and bad JSON', async () => {
    const before = await home();
    const cases: Array<[unknown, string]> = [
      [{ carousel: [{ ...kurta, name: '  ' }] }, 'Slide 1: Name is required'],
      [{ carousel: [kurta, { ...saree, name: undefined }] }, 'Slide 2: Name is required'],
      [{ carousel: [{ ...kurta, price: -1 }] }, 'Slide 1: Price must be a number of at least 0'],
      [{ carousel: [{ ...kurta, price: 'abc' }] }, 'Slide 1: Price must be a number of at least 0'],
      [{ carousel: [kurta, { ...saree, price: undefined }] }, 'Slide 2: Price is required'],
      [{ carousel: [{ ...kurta, price: 10.555 }] }, 'Slide 1: Price can have at most 2 decimals'],
      [
        { carousel: [{ ...kurta, image: 'javascript:alert(1)' }] },
        'Slide 1: Image must be an http(s) URL or an uploaded image path',
      ],
      [{ carousel: { name: 'x' } }, 'carousel must be a JSON list of slides'],
      [{ carousel: 'not json' }, 'carousel must be valid JSON'],
    ];
    for (const [body, message] of cases)
      expect(await putJson(body), message).toMatchObject({ status: 400, body: { message } });
    expect(await putForm(form({ carousel: '[{"name":' }))).toMatchObject({
      status: 400,
      body: { message: 'carousel must be valid JSON' },
    });
    expect(await putForm(form({ carousel: '[]', sections: '{oops' }))).toMatchObject({
      status: 400,
      body: { message: 'sections must be valid JSON' },
    });
    expect(await home()).toEqual(before);
  });

  it('a multipart sections field nested past 32 levels is a 400 (as a JSON body is), not a 500; 32 levels are kept', async () => {
    const before = await home();
    const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
    const deep = await putForm(form({ sections: nested(10_000) }));
    expect(deep).toMatchObject({
      status: 400,
      body: { message: 'sections is nested too deeply (at most 32 levels of arrays and objects)' },
    });
    expect((await putForm(form({ carousel: nested(33) }))).status).toBe(400);
    expect(await home()).toEqual(before);
    expect((await putForm(form({ sections: nested(32) }))).status).toBe(200);
    expect((await home()).sections).toEqual(JSON.parse(nested(32)));
  });

  it('accepts a form price as text and an empty carousel, which empties the slides', async () => {
    const r = await putForm(form({ carousel: JSON.stringify([{ ...kurta, price: '799.50' }]) }));
    expect(r.status).toBe(200);
    expect((await home()).carousel).toEqual([{ ...kurta, price: 799.5, image: '' }]);
    expect((await putJson({ carousel: [] })).status).toBe(200);
    expect((await home()).carousel).toEqual([]);
  });
});
