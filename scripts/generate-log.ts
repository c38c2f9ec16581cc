/**
 * Writes a realistic event log into a fresh database (migrated, no read models built), for replay
 * measurements: products and their stock, users and their e-mail claims, profile updates, testimonials,
 * coupons, and sales: stock reserved, provider order created, coupon use held, then paid (payment verified,
 * stock and coupon use committed, order placed, delivery status changes, seen, now and then deleted) or
 * expired (stock and coupon use released); now and then a failed payment attempt first, or a provider order
 * opened before it is created. Now and then an admin edit: a price or size change, a delisting and
 * relisting, a product deleted, a coupon updated or deleted, a stock level set. Every event type the
 * catalog, checkout and orders projections fold for the replay occurs. Deterministic for a given --seed.
 *
 *   npm run generate-log -- --events 1000000 [--database <name>] [--seed 1]
 *
 * The database is created on DATABASE_URL's server (default postgres://postgres@127.0.0.1:5432/postgres)
 * and must not exist yet. Prints its URL; then e.g.
 *   DATABASE_URL=<url> npm run replay -- --all
 */
import { createHash } from 'node:crypto';
import { createFreshDatabase } from '@shop/test-support/fresh-database';
import { migrate } from '../services/shared/src/db/migrate.ts';
import { createPool } from '../services/shared/src/db/pool.ts';
import { runCli } from './lib/run-cli.ts';

type Schema = 'accounts' | 'catalog' | 'checkout' | 'orders';
interface Pending {
  stream: string;
  version: number;
  id: string;
  type: string;
  data: string;
  metadata: string;
}

/** mulberry32: a small seeded generator, so a seed gives the same log. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const uuidOf = (text: string) => {
  const h = createHash('md5').update(text).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

export async function generateLog(opts: {
  serverUrl: string;
  database: string;
  events: number;
  seed?: number;
  log?: (line: string) => void;
}): Promise<{ url: string; events: number; orders: number; seconds: number }> {
  const log = opts.log ?? (() => undefined);
  const started = Date.now();
  const { url } = await createFreshDatabase(opts.serverUrl, opts.database);
  const pool = createPool(url, 4);
  try {
    await migrate(pool);
    const rnd = random(opts.seed ?? 1);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
    const versions = new Map<string, number>();
    const buffers: Record<Schema, Pending[]> = { accounts: [], catalog: [], checkout: [], orders: [] };
    let written = 0;
    let counter = 0;
    let clock = Date.parse('2025-01-01T04:30:00.000Z');
    const now = () => new Date((clock += 1_000 + Math.floor(rnd() * 20_000))).toISOString();

    const flush = async (schema: Schema) => {
      const rows = buffers[schema];
      if (rows.length === 0) return;
      buffers[schema] = [];
      await pool.query(
        `INSERT INTO ${schema}.events (stream_id, stream_version, event_id, type, data, metadata)
         SELECT * FROM unnest($1::text[], $2::int[], $3::uuid[], $4::text[], $5::jsonb[], $6::jsonb[])`,
        [
          rows.map((r) => r.stream),
          rows.map((r) => r.version),
          rows.map((r) => r.id),
          rows.map((r) => r.type),
          rows.map((r) => r.data),
          rows.map((r) => r.metadata),
        ],
      );
      written += rows.length;
    };
    const emit = async (
      schema: Schema,
      stream: string,
      type: string,
      data: object,
      meta: { actor: string; correlationId?: string; occurredAt: string },
    ) => {
      const version = (versions.get(stream) ?? 0) + 1;
      versions.set(stream, version);
      buffers[schema].push({
        stream,
        version,
        id: uuidOf(`${opts.seed ?? 1}/${(counter += 1)}`),
        type,
        data: JSON.stringify(data),
        metadata: JSON.stringify(meta),
      });
      if (buffers[schema].length >= 5_000) await flush(schema);
    };
    const total = () =>
      written + buffers.accounts.length + buffers.catalog.length + buffers.checkout.length + buffers.orders.length;

    // The catalog: products, a third sold by size.
    const productCount = Math.max(20, Math.round(opts.events / 500));
    const products: Array<{ id: string; name: string; pricePaise: number; sizes: string[] }> = [];
    const categories = ['Men', 'Women', 'Kids', 'Ethnic', 'Accessories'];
    const fabrics = ['Cotton', 'Linen', 'Silk', 'Khadi', 'Wool'];
    for (let i = 0; i < productCount; i++) {
      const sizes = i % 3 === 0 ? ['S', 'M', 'L', 'XL'] : [];
      const p = {
        id: `gen-p${i}`,
        name: `${pick(fabrics)} ${pick(['Kurta', 'Saree', 'Shirt', 'Dupatta'])} ${i}`,
        pricePaise: 29_900 + Math.floor(rnd() * 500) * 1_000,
        sizes,
      };
      products.push(p);
      const at = now();
      await emit(
        'catalog',
        `product-${p.id}`,
        'ProductCreated',
        {
          productId: p.id,
          name: p.name,
          pricePaise: p.pricePaise,
          description: `Handwoven ${p.name}`,
          category: pick(categories),
          size: '',
          color: pick(['Indigo', 'Maroon', 'White', 'Mustard']),
          brand: 'Kapda',
          material: pick(fabrics),
          image: `/uploads/gen-${i}.jpg`,
          sizeLabels: sizes,
          createdAt: at,
        },
        { actor: 'admin', occurredAt: at },
      );
      for (const size of sizes.length ? sizes : [null])
        await emit(
          'catalog',
          `stock-${p.id}${size ? `:${size}` : ''}`,
          'StockLevelSet',
          { productId: p.id, size, available: 1_000_000, at },
          { actor: 'admin', occurredAt: at },
        );
    }
    // Coupons.
    const coupons: Array<{ id: string; code: string }> = [];
    for (let i = 0; i < 10; i++) {
      const c = { id: uuidOf(`coupon-${i}`), code: `FEST${i}` };
      coupons.push(c);
      const at = now();
      await emit(
        'checkout',
        `coupon-${c.id}`,
        'CouponCreated',
        {
          couponId: c.id,
          code: c.code,
          discount: { type: 'percentage', basisPoints: 1000, maxDiscountPaise: 50_000 },
          minOrderPaise: 0,
          usageLimit: null,
          validFrom: null,
          validUntil: null,
          description: 'Festive offer',
          isActive: true,
          createdAt: at,
        },
        { actor: 'admin', occurredAt: at },
      );
    }
    const users: Array<{ id: string; name: string; email: string }> = [];
    const newUser = async () => {
      const n = users.length;
      const u = { id: uuidOf(`user-${n}`), name: `Shopper ${n}`, email: `shopper${n}@example.in` };
      users.push(u);
      const at = now();
      await emit(
        'accounts',
        `user-${u.id}`,
        'UserRegistered',
        {
          userId: u.id,
          name: u.name,
          email: u.email,
          phone: '+919800000000',
          passwordHash: 'scrypt$generated',
          isAdmin: false,
          registeredAt: at,
        },
        { actor: u.id, occurredAt: at },
      );
      await emit(
        'accounts',
        `email-${u.email}`,
        'EmailClaimed',
        { email: u.email, userId: u.id },
        { actor: u.id, occurredAt: at },
      );
    };
    for (let i = 0; i < 50; i++) await newUser();

    /** An admin edit; `kind` in [0, 1) picks which (by default at random). */
    const edits = new Set<number>();
    /** A shopper's review, approved by the admin seven times in ten (the rest stay pending). */
    const submitTestimonial = async () => {
      const u = pick(users);
      const id = uuidOf(`testimonial-${counter}-${testimonials.length}`);
      testimonials.push(id);
      const at = now();
      await emit(
        'accounts',
        `testimonial-${id}`,
        'TestimonialSubmitted',
        {
          testimonialId: id,
          userId: u.id,
          rating: 1 + Math.floor(rnd() * 5),
          text: 'Lovely fabric',
          submittedAt: at,
        },
        { actor: u.id, occurredAt: at },
      );
      if (rnd() < 0.7)
        await emit(
          'accounts',
          `testimonial-${id}`,
          'TestimonialModerated',
          {
            testimonialId: id,
            from: 'pending',
            to: 'approved',
            by: 'admin',
            at: now(),
          },
          { actor: 'admin', occurredAt: at },
        );
    };
    const adminEdit = async (kind?: number) => {
      const at = now();
      const meta = { actor: 'admin', occurredAt: at };
      const k = kind ?? rnd();
      edits.add([0.4, 0.5, 0.7, 0.8, 0.85, 0.95, 1].findIndex((x) => k < x));
      const p = pick(products);
      if (k < 0.4)
        await emit(
          'catalog',
          `product-${p.id}`,
          'ProductDetailsChanged',
          { productId: p.id, pricePaise: (p.pricePaise += 1_000), changedAt: at },
          meta,
        );
      else if (k < 0.5 && products.some((x) => x.sizes.length)) {
        const q = pick(products.filter((x) => x.sizes.length));
        q.sizes = q.sizes.length === 4 ? ['S', 'M', 'L', 'XL', 'XXL'] : ['S', 'M', 'L', 'XL'];
        await emit(
          'catalog',
          `product-${q.id}`,
          'ProductDetailsChanged',
          { productId: q.id, name: q.name, sizeLabels: q.sizes, changedAt: at },
          meta,
        );
      } else if (k < 0.7) {
        await emit('catalog', `product-${p.id}`, 'ProductDelisted', { productId: p.id, at }, meta);
        await emit('catalog', `product-${p.id}`, 'ProductRelisted', { productId: p.id, at: now() }, meta);
      } else if (k < 0.8) {
        const size = p.sizes.length ? pick(p.sizes) : null;
        await emit(
          'catalog',
          `stock-${p.id}${size ? `:${size}` : ''}`,
          'StockLevelSet',
          { productId: p.id, size, available: 1_000_000, at },
          meta,
        );
      } else if (k < 0.85 && products.length > 10) {
        products.splice(products.indexOf(p), 1);
        await emit('catalog', `product-${p.id}`, 'ProductDeleted', { productId: p.id, at }, meta);
      } else if (k < 0.95) {
        const c = pick(coupons);
        await emit(
          'checkout',
          `coupon-${c.id}`,
          'CouponUpdated',
          {
            couponId: c.id,
            code: c.code,
            discount: { type: 'fixed', amountPaise: 10_000 + Math.floor(rnd() * 10) * 1_000 },
            minOrderPaise: 50_000,
            usageLimit: 1_000_000,
            validFrom: null,
            validUntil: '2030-12-31',
            description: 'Festive offer, revised',
            isActive: true,
            updatedAt: at,
          },
          meta,
        );
      } else if (coupons.length > 3) {
        const c = pick(coupons);
        coupons.splice(coupons.indexOf(c), 1);
        await emit(
          'checkout',
          `coupon-${c.id}`,
          'CouponDeleted',
          { couponId: c.id, code: c.code, deletedAt: at },
          meta,
        );
      }
    };

    const testimonials: string[] = [];
    let orders = 0;
    while (total() < opts.events) {
      const r = rnd();
      if (r < 0.04) {
        await newUser();
        continue;
      }
      if (r < 0.05) {
        const u = pick(users);
        const at = now();
        await emit(
          'accounts',
          `user-${u.id}`,
          'UserProfileUpdated',
          {
            userId: u.id,
            name: u.name,
            email: u.email,
            phone: '+919811111111',
            dob: null,
            gender: pick(['Male', 'Female', 'Other']),
            updatedAt: at,
          },
          { actor: u.id, occurredAt: at },
        );
        continue;
      }
      if (r < 0.058) {
        await adminEdit();
        continue;
      }
      if (r < 0.063) {
        await submitTestimonial();
        continue;
      }
      // A sale attempt.
      const u = pick(users);
      const p = pick(products);
      const size = p.sizes.length ? pick(p.sizes) : null;
      const quantity = 1 + Math.floor(rnd() * 3);
      const reservationId = uuidOf(`reservation-${counter}`);
      const razorpayOrderId = `order_${reservationId.replace(/-/g, '').slice(0, 14)}`;
      const holdId = `${reservationId}#0`;
      const stockStream = `stock-${p.id}${size ? `:${size}` : ''}`;
      const at = now();
      const meta = { actor: u.id, correlationId: reservationId, occurredAt: at };
      /** The catalog holds the sale's units under `hold` from `from` for the reservation time. */
      const reserveStock = (hold: string, from: string, m: Parameters<typeof emit>[4]) =>
        emit(
          'catalog',
          stockStream,
          'StockReserved',
          {
            productId: p.id,
            size,
            reservationId: hold,
            quantity,
            at: from,
            expiresAt: new Date(Date.parse(from) + 900_000).toISOString(),
          },
          m,
        );
      await reserveStock(holdId, at, meta);
      const coupon = rnd() < 0.2 ? pick(coupons) : null;
      const subtotalPaise = p.pricePaise * quantity;
      const discountPaise = coupon ? Math.min(50_000, Math.round(subtotalPaise / 10)) : 0;
      const lines = [
        {
          productId: p.id,
          name: p.name,
          image: '/uploads/x.jpg',
          size,
          color: null,
          quantity,
          unitPricePaise: p.pricePaise,
          lineTotalPaise: subtotalPaise,
        },
      ];
      const priced = {
        customer: { userId: u.id, name: u.name, email: u.email, phone: '+919800000000' },
        address: '12 MG Road, Bengaluru',
        pincode: '560001',
        lines,
        subtotalPaise,
        couponCode: coupon?.code ?? null,
        discountPaise,
        shippingChargePaise: 0,
        deliveryChargePaise: 0,
        totalPaise: subtotalPaise - discountPaise,
      };
      const holds = [
        {
          productId: p.id,
          size,
          quantity,
          holdId,
          name: p.name,
          image: '/uploads/x.jpg',
          unitPricePaise: p.pricePaise,
          stockSize: size,
        },
      ];
      const payment = `payment-${razorpayOrderId}`;
      if (rnd() < 0.02)
        await emit(
          'checkout',
          payment,
          'PaymentOrderOpened',
          {
            razorpayOrderId,
            amountPaise: subtotalPaise - discountPaise,
            receipt: `rcpt_${counter}`,
            currency: 'INR',
            userId: u.id,
            createdAt: at,
            expiresAt: new Date(Date.parse(at) + 900_000).toISOString(),
          },
          meta,
        );
      await emit(
        'checkout',
        payment,
        'PaymentOrderCreated',
        {
          ...priced,
          razorpayOrderId,
          reservationId,
          holds,
          receipt: `rcpt_${counter}`,
          currency: 'INR',
          createdAt: at,
          expiresAt: new Date(Date.parse(at) + 900_000).toISOString(),
        },
        meta,
      );
      if (coupon)
        await emit(
          'checkout',
          `coupon-${coupon.id}`,
          'CouponUseReserved',
          {
            couponId: coupon.id,
            code: coupon.code,
            reservationId,
            orderTotalPaise: subtotalPaise,
            discountPaise,
            reservedAt: at,
          },
          meta,
        );
      // Half the buyers get as far as the payment dialog: the hold then lasts the full reservation time.
      if (rnd() < 0.5)
        await emit(
          'checkout',
          payment,
          'PaymentDialogOpened',
          { razorpayOrderId, expiresAt: new Date(Date.parse(at) + 900_000).toISOString(), openedAt: at },
          meta,
        );
      if (rnd() < 0.03)
        await emit(
          'checkout',
          payment,
          'PaymentFailed',
          { razorpayOrderId, reason: 'card declined', failedAt: now() },
          { actor: 'checkout', correlationId: reservationId, occurredAt: at },
        );
      if (opts.events - total() < 40) {
        // The last few checkouts are still waiting for their payment: their holds are live.
      } else if (rnd() < 0.85) {
        // A few buyers cancel the dialog and their payment still goes through: the stock is held again for it.
        let paidReservationId = reservationId;
        let paidHoldId = holdId;
        let paidHolds = holds;
        if (!coupon && rnd() < 0.04) {
          const cancelledAt = now();
          const cmeta = { actor: u.id, correlationId: reservationId, occurredAt: cancelledAt };
          await emit(
            'checkout',
            payment,
            'PaymentOrderExpired',
            { razorpayOrderId, reservationId, expiredAt: cancelledAt, reason: 'cancelled' },
            cmeta,
          );
          await emit(
            'catalog',
            stockStream,
            'StockReleased',
            { productId: p.id, size, reservationId: holdId, quantity, reason: 'cancelled', at: cancelledAt },
            cmeta,
          );
          const revivedAt = now();
          paidReservationId = uuidOf(`revival-${counter}`);
          paidHoldId = `${paidReservationId}#0`;
          paidHolds = holds.map((h) => ({ ...h, holdId: paidHoldId }));
          const rmeta = { actor: 'webhook', correlationId: paidReservationId, occurredAt: revivedAt };
          await reserveStock(paidHoldId, revivedAt, rmeta);
          await emit(
            'checkout',
            payment,
            'PaymentOrderRevived',
            { razorpayOrderId, reservationId: paidReservationId, holds: paidHolds, revivedAt },
            rmeta,
          );
        }
        const paidAt = now();
        const pmeta = { actor: 'checkout', correlationId: paidReservationId, occurredAt: paidAt };
        await emit(
          'checkout',
          payment,
          'PaymentVerified',
          {
            ...priced,
            razorpayOrderId,
            razorpayPaymentId: `pay_${razorpayOrderId.slice(6)}`,
            reservationId: paidReservationId,
            holds: paidHolds,
            currency: 'INR',
            via: 'checkout',
            verifiedAt: paidAt,
          },
          pmeta,
        );
        await emit(
          'catalog',
          stockStream,
          'StockCommitted',
          { productId: p.id, size, reservationId: paidHoldId, quantity, at: paidAt },
          pmeta,
        );
        if (coupon)
          await emit(
            'checkout',
            `coupon-${coupon.id}`,
            'CouponUseCommitted',
            { couponId: coupon.id, reservationId, committedAt: paidAt },
            pmeta,
          );
        orders += 1;
        const orderNumber = `ORD-${100000 + orders}`;
        const { customer, ...details } = priced;
        await emit(
          'orders',
          `order-${orderNumber}`,
          'OrderPlaced',
          {
            ...details,
            orderNumber,
            razorpayOrderId,
            razorpayPaymentId: `pay_${razorpayOrderId.slice(6)}`,
            userId: u.id,
            customer: { name: customer.name, email: customer.email, phone: customer.phone },
            paymentStatus: 'Paid',
            deliveryStatus: 'Processing',
            placedAt: paidAt,
          },
          { actor: u.id, occurredAt: paidAt },
        );
        const steps = Math.floor(rnd() * 3);
        const path = ['Processing', 'Out for Delivery', 'Delivered'];
        for (let s = 0; s < steps; s++) {
          const changedAt = now();
          await emit(
            'orders',
            `order-${orderNumber}`,
            'DeliveryStatusChanged',
            {
              orderNumber,
              from: path[s],
              to: path[s + 1],
              changedBy: 'admin',
              changedAt,
            },
            { actor: 'admin', occurredAt: changedAt },
          );
        }
        if (rnd() < 0.3) {
          const seenAt = now();
          await emit(
            'orders',
            `order-${orderNumber}`,
            'OrderMarkedSeen',
            { orderNumber, seenBy: 'admin', seenAt },
            { actor: 'admin', occurredAt: seenAt },
          );
        }
        if (steps === 2 && rnd() < 0.02) {
          const deletedAt = now();
          await emit(
            'orders',
            `order-${orderNumber}`,
            'OrderDeleted',
            { orderNumber, deletedBy: 'admin', deletedAt },
            { actor: 'admin', occurredAt: deletedAt },
          );
        }
      } else {
        const expiredAt = now();
        const emeta = { actor: 'expiry', correlationId: reservationId, occurredAt: expiredAt };
        await emit('checkout', payment, 'PaymentOrderExpired', { razorpayOrderId, reservationId, expiredAt }, emeta);
        await emit(
          'catalog',
          stockStream,
          'StockReleased',
          { productId: p.id, size, reservationId: holdId, quantity, reason: 'expired', at: expiredAt },
          emeta,
        );
        if (coupon)
          await emit(
            'checkout',
            `coupon-${coupon.id}`,
            'CouponUseReleased',
            { couponId: coupon.id, reservationId, releasedAt: expiredAt },
            emeta,
          );
      }
      if (written > 0 && written % 100_000 < 5_000) log(`${written.toLocaleString('en-US')} events written`);
    }
    // Every kind of admin edit at least once, even in a small log (the replay's fold tests rely on it).
    for (const [i, k] of [0, 0.45, 0.6, 0.75, 0.82, 0.9, 0.97].entries()) if (!edits.has(i)) await adminEdit(k);
    // An admin promoted and a testimonial taken down.
    const promotedAt = now();
    await emit(
      'accounts',
      `user-${users[0]!.id}`,
      'UserPromotedToAdmin',
      { userId: users[0]!.id, promotedAt },
      { actor: 'admin', occurredAt: promotedAt },
    );
    // Two reviews at least, so that one is taken down and the other stays, even in a small log.
    while (testimonials.length < 2) await submitTestimonial();
    await emit(
      'accounts',
      `testimonial-${testimonials[0]!}`,
      'TestimonialDeleted',
      { testimonialId: testimonials[0]!, by: 'admin', at: promotedAt },
      { actor: 'admin', occurredAt: promotedAt },
    );
    for (const s of ['accounts', 'catalog', 'checkout', 'orders'] as const) await flush(s);
    if (orders > 0) await pool.query(`SELECT setval('orders.order_number_seq', $1)`, [100000 + orders]);
    return { url, events: written, orders, seconds: (Date.now() - started) / 1000 };
  } finally {
    await pool.end();
  }
}

runCli(
  import.meta.url,
  async (argv) => {
    const value = (flag: string) => {
      const i = argv.indexOf(flag);
      return i >= 0 ? argv[i + 1] : undefined;
    };
    const events = Number(value('--events') ?? 1_000_000);
    if (!Number.isInteger(events) || events <= 0) {
      console.error('usage: npm run generate-log -- --events <n> [--database <name>] [--seed <n>]');
      return 2;
    }
    const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    const database = value('--database') ?? `kapda_log_${Date.now().toString(36)}`;
    const seed = Number(value('--seed') ?? 1);
    const r = await generateLog({ serverUrl, database, events, seed, log: (l) => console.error(l) });
    console.log(
      `${r.events.toLocaleString('en-US')} events (${r.orders.toLocaleString('en-US')} orders) written in ${r.seconds.toFixed(1)} s to ${r.url}`,
    );
    console.log(`replay it: DATABASE_URL=${r.url} npm run replay -- --all`);
    return 0;
  },
  1,
);
