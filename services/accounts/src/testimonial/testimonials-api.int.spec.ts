import { beforeAll, describe, expect, it } from 'vitest';
import { testShopForTests } from '@shop/test-support/file-shop';

interface Testimonial {
  id: string;
  rating: number;
  text: string;
  status: string;
  createdAt: string;
  User: { name: string | null; email?: string | null };
}

const running = testShopForTests();
let meera: string;
let ravi: string;
beforeAll(async () => {
  meera = (await running.shop.signUp('Meera Iyer', 'meera@example.in', '+919800000001')).token;
  ravi = (await running.shop.signUp('Ravi Kumar', 'ravi@example.in', '+919800000001')).token;
});

const submit = (token: string | undefined, body: unknown) =>
  running.shop.api<Testimonial & { message: string; testimonial: Testimonial }>('POST', '/api/testimonials', {
    token,
    body,
  });
const publicList = async () => (await running.shop.api<Testimonial[]>('GET', '/api/testimonials')).body;
const adminList = async () =>
  (await running.shop.api<Testimonial[]>('GET', '/api/testimonials/admin/all', { token: running.admin })).body;
const moderate = (id: string, status: unknown, token = running.admin) =>
  running.shop.api<Testimonial & { message: string }>('PUT', `/api/testimonials/admin/${id}`, {
    token,
    body: { status },
  });

describe('POST /api/testimonials', () => {
  it("answers 401 'Please login to submit a review' without a token and with a bad one", async () => {
    for (const token of [undefined, 'not-a-token']) {
      expect(await submit(token, { rating: 4, text: 'Great fit' })).toMatchObject({
        status: 401,
        body: { message: 'Please login to submit a review' },
      });
    }
  });

  it("answers 400 'Please enter your review text' for missing or blank text", async () => {
    for (const body of [{ rating: 4 }, { rating: 4, text: '   \n ' }, { rating: 4, text: 42 }]) {
      expect(await submit(meera, body), JSON.stringify(body)).toMatchObject({
        status: 400,
        body: { message: 'Please enter your review text' },
      });
    }
  });

  it('answers 400 for a rating that is not a whole number from 1 to 5', async () => {
    for (const rating of [0, 6, 4.5, 'five', true]) {
      expect(await submit(meera, { rating, text: 'Nice' }), String(rating)).toMatchObject({
        status: 400,
        body: { message: 'Rating must be a whole number from 1 to 5' },
      });
    }
    expect(await adminList()).toEqual([]);
  });

  it('records a pending review with its text trimmed, rating 5 by default, and answers 201 with it and a message', async () => {
    const r = await submit(meera, { text: '  Loved the silk saree!  ' });
    expect(r.status).toBe(201);
    expect(r.body.message).toMatch(/review/i);
    const expected = { rating: 5, text: 'Loved the silk saree!', status: 'pending', User: { name: 'Meera Iyer' } };
    expect(r.body.testimonial).toMatchObject(expected);
    expect(r.body).toMatchObject({ id: r.body.testimonial.id, ...expected });
    expect(Number.isNaN(Date.parse(r.body.createdAt))).toBe(false);
    // the events the order service's dashboard reads: the shared contract's, on testimonial-<id>
    const { rows } = await running.shop.db.pool.query<{ type: string; data: Record<string, unknown> }>(
      `SELECT type, data FROM accounts.events WHERE stream_id = $1 ORDER BY stream_version`,
      [`testimonial-${r.body.id}`],
    );
    expect(rows).toMatchObject([
      { type: 'TestimonialSubmitted', data: { testimonialId: r.body.id, rating: 5, text: 'Loved the silk saree!' } },
    ]);
  });
});

describe('testimonial moderation', () => {
  it('keeps a pending review off the public list; the admin list shows it with the author name and e-mail', async () => {
    const r = await submit(ravi, { rating: '4', text: 'Quick delivery to Pune' });
    expect(r.status).toBe(201);
    expect((await publicList()).map((t) => t.id)).not.toContain(r.body.id);
    expect((await adminList()).find((t) => t.id === r.body.id)).toMatchObject({
      rating: 4,
      status: 'pending',
      User: { name: 'Ravi Kumar', email: 'ravi@example.in' },
    });
  });

  it('shows an approved review publicly with its author name; a rejected one is hidden again', async () => {
    const { body: created } = await submit(ravi, { rating: 3, text: 'Colour a little different' });
    const approved = await moderate(created.id, 'approved');
    expect(approved).toMatchObject({ status: 200, body: { id: created.id, status: 'approved' } });
    expect((await publicList()).find((t) => t.id === created.id)).toEqual({
      id: created.id,
      rating: 3,
      text: 'Colour a little different',
      status: 'approved',
      createdAt: created.createdAt,
      User: { name: 'Ravi Kumar' },
    });

    expect((await moderate(created.id, 'rejected')).body).toMatchObject({ status: 'rejected' });
    expect((await publicList()).map((t) => t.id)).not.toContain(created.id);
    expect((await adminList()).find((t) => t.id === created.id)).toMatchObject({ status: 'rejected' });
    // and back to pending is allowed too, still not public
    expect((await moderate(created.id, 'pending')).body).toMatchObject({ status: 'pending' });
    expect((await publicList()).map((t) => t.id)).not.toContain(created.id);
  });

  it("lists approved reviews newest first, each with the author's current name", async () => {
    const first = (await submit(meera, { rating: 5, text: 'First order, perfect' })).body;
    const second = (await submit(ravi, { rating: 4, text: 'Second order, good' })).body;
    await moderate(first.id, 'approved');
    await moderate(second.id, 'approved');
    const ids = (await publicList()).map((t) => t.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));

    const renamed = await running.shop.api('PUT', '/api/auth/me', {
      token: meera,
      body: { name: 'Meera Nair', email: 'meera@example.in' },
    });
    expect(renamed.status).toBe(200);
    expect((await publicList()).find((t) => t.id === first.id)?.User).toEqual({ name: 'Meera Nair' });
  });

  it('a deleted review is gone from both lists, and cannot be moderated or deleted again (404)', async () => {
    const { body: created } = await submit(meera, { rating: 2, text: 'Stitching came loose' });
    await moderate(created.id, 'approved');
    expect((await publicList()).map((t) => t.id)).toContain(created.id);
    expect(
      await running.shop.api('DELETE', `/api/testimonials/admin/${created.id}`, { token: running.admin }),
    ).toMatchObject({
      status: 200,
      body: { message: 'Testimonial deleted', id: created.id },
    });
    expect((await publicList()).map((t) => t.id)).not.toContain(created.id);
    expect((await adminList()).map((t) => t.id)).not.toContain(created.id);
    expect(await moderate(created.id, 'approved')).toMatchObject({
      status: 404,
      body: { message: 'Testimonial not found' },
    });
    expect(
      await running.shop.api('DELETE', `/api/testimonials/admin/${created.id}`, { token: running.admin }),
    ).toMatchObject({
      status: 404,
      body: { message: 'Testimonial not found' },
    });
  });

  it('PUT /api/testimonials/admin/{id} answers 400 for a status other than pending, approved or rejected, 404 for an unknown id', async () => {
    const { body: created } = await submit(meera, { rating: 4, text: 'Nice dupatta' });
    for (const status of ['published', '', undefined, 1]) {
      expect(await moderate(created.id, status), String(status)).toMatchObject({
        status: 400,
        body: { message: 'Status must be pending, approved or rejected' },
      });
    }
    expect(await moderate('00000000-0000-4000-8000-000000000000', 'approved')).toMatchObject({
      status: 404,
      body: { message: 'Testimonial not found' },
    });
    expect((await moderate('bad id!', 'approved')).status).toBe(400);
  });
});

describe('admin guard on testimonial admin routes', () => {
  it('answers 401 without a token and 403 for a shopper on GET admin/all, PUT and DELETE admin/{id}', async () => {
    const { body: created } = await submit(meera, { rating: 5, text: 'Guarded' });
    const routes = [
      ['GET', '/api/testimonials/admin/all', undefined],
      ['PUT', `/api/testimonials/admin/${created.id}`, { status: 'approved' }],
      ['DELETE', `/api/testimonials/admin/${created.id}`, undefined],
    ] as const;
    for (const [method, path, body] of routes) {
      expect((await running.shop.api(method, path, { body })).status, `${method} ${path}`).toBe(401);
      expect((await running.shop.api(method, path, { body, token: meera })).status, `${method} ${path}`).toBe(403);
    }
    // the shopper's attempts changed nothing
    expect((await adminList()).find((t) => t.id === created.id)).toMatchObject({ status: 'pending' });
  });
});

describe('submission limits per account (issue 27: one account posted 60 reviews in 6.6 s)', () => {
  const TOO_MANY_PENDING =
    'You already have 3 reviews waiting for approval; you can submit another once they have been moderated';
  const TOO_MANY_AN_HOUR = 'You can submit at most 5 reviews an hour, please try again later';

  it('at most 3 pending: the 4th waits for moderation; at most 5 an hour; another account is not affected', async () => {
    const asha = (await running.shop.signUp('Asha Rao', 'asha.reviews@example.in', '+919800000003')).token;
    const ids: string[] = [];
    for (let i = 1; i <= 3; i++) {
      const r = await submit(asha, { rating: 4, text: `Review ${i}` });
      expect(r.status, `review ${i}`).toBe(201);
      ids.push(r.body.id);
    }
    const fourth = await submit(asha, { rating: 4, text: 'Review 4' });
    expect(fourth).toMatchObject({ status: 429, body: { message: TOO_MANY_PENDING } });

    // Moderation makes room: 4th and 5th go through, the 6th is past the hourly budget even with room.
    expect((await moderate(ids[0]!, 'approved')).status).toBe(200);
    expect((await submit(asha, { rating: 4, text: 'Review 4' })).status).toBe(201);
    expect((await moderate(ids[1]!, 'rejected')).status).toBe(200);
    expect((await submit(asha, { rating: 4, text: 'Review 5' })).status).toBe(201);
    expect((await moderate(ids[2]!, 'approved')).status).toBe(200);
    const sixth = await running.shop.api<{ message: string }>('POST', '/api/testimonials', {
      token: asha,
      body: { rating: 4, text: 'Review 6' },
    });
    expect(sixth).toMatchObject({ status: 429, body: { message: TOO_MANY_AN_HOUR } });
    const pending = (await adminList()).filter(
      (t) => t.User.email === 'asha.reviews@example.in' && t.status === 'pending',
    );
    expect(pending).toHaveLength(2);

    const kiran = (await running.shop.signUp('Kiran Das', 'kiran.reviews@example.in', '+919800000004')).token;
    expect((await submit(kiran, { rating: 5, text: 'Soft cotton' })).status).toBe(201);
  });

  it('refused submissions (blank text) do not use up the hourly budget', async () => {
    const dev = (await running.shop.signUp('Dev Shah', 'dev.reviews@example.in', '+919800000005')).token;
    for (let i = 0; i < 6; i++) expect((await submit(dev, { rating: 4, text: ' ' })).status).toBe(400);
    expect((await submit(dev, { rating: 4, text: 'Fits well' })).status).toBe(201);
  });
});
