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
import type pg from 'pg';
import type { EmailEvent, UserEvent } from '@shop/accounts';
import type { ProductEvent, StockEvent } from '@shop/catalog';
import type { CouponEvent } from '@shop/checkout';
import type { OrderEvent } from '@shop/order';
import type { ReservedLine } from '@shop/shared/contracts/inventory';
import type { PaymentEvent, PricedOrder } from '@shop/shared/contracts/payment-events';
import type { TestimonialEvent } from '@shop/shared/contracts/testimonial-events';
import { createFreshDatabase } from '@shop/test-support/fresh-database';
import { migrate } from '../services/shared/src/db/migrate.ts';
import { createPool } from '../services/shared/src/db/pool.ts';
import { runCli } from './lib/run-cli.ts';

/** The events each service's log holds, typed as the services write them. */
interface EventsOf {
  accounts: UserEvent | EmailEvent | TestimonialEvent;
  catalog: ProductEvent | StockEvent;
  checkout: PaymentEvent | CouponEvent;
  orders: OrderEvent;
}
type Schema = keyof EventsOf;
type Meta = { actor: string; correlationId?: string; occurredAt: string };
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

/** Appends events to the services' logs in batches, numbering each stream's versions and the event ids. */
class LogWriter {
  private readonly versions = new Map<string, number>();
  private buffers: Record<Schema, Pending[]> = { accounts: [], catalog: [], checkout: [], orders: [] };
  written = 0;
  /** Events emitted so far: names each event's id (and some of the generated ids). */
  counter = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly seed: number,
  ) {}

  async emit<S extends Schema>(schema: S, stream: string, event: EventsOf[S], meta: Meta): Promise<void> {
    const version = (this.versions.get(stream) ?? 0) + 1;
    this.versions.set(stream, version);
    this.buffers[schema].push({
      stream,
      version,
      id: uuidOf(`${this.seed}/${(this.counter += 1)}`),
      type: event.type,
      data: JSON.stringify(event.data),
      metadata: JSON.stringify(meta),
    });
    if (this.buffers[schema].length >= 5_000) await this.flush(schema);
  }

  /** Events written and buffered. */
  total(): number {
    const { accounts, catalog, checkout, orders } = this.buffers;
    return this.written + accounts.length + catalog.length + checkout.length + orders.length;
  }

  async flushAll(): Promise<void> {
    for (const s of ['accounts', 'catalog', 'checkout', 'orders'] as const) await this.flush(s);
  }

  private async flush(schema: Schema): Promise<void> {
    const rows = this.buffers[schema];
    if (rows.length === 0) return;
    this.buffers[schema] = [];
    await this.pool.query(
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
    this.written += rows.length;
  }
}

interface Product {
  id: string;
  name: string;
  pricePaise: number;
  sizes: string[];
}
interface Coupon {
  id: string;
  code: string;
}
interface User {
  id: string;
  name: string;
  email: string;
}

/** The shop as generated so far, with the seeded dice and clock every step draws from (in a fixed order). */
interface Shop {
  out: LogWriter;
  rnd: () => number;
  pick: <T>(xs: readonly T[]) => T;
  /** The next event's time: 1 to 21 seconds after the last. */
  now: () => string;
  products: Product[];
  coupons: Coupon[];
  users: User[];
  testimonials: string[];
  /** The kinds of admin edit made so far (adminEdit). */
  edits: Set<number>;
  orders: number;
}

function newShop(out: LogWriter, seed: number): Shop {
  const rnd = random(seed);
  let clock = Date.parse('2025-01-01T04:30:00.000Z');
  return {
    out,
    rnd,
    pick: (xs) => xs[Math.floor(rnd() * xs.length)]!,
    now: () => new Date((clock += 1_000 + Math.floor(rnd() * 20_000))).toISOString(),
    products: [],
    coupons: [],
    users: [],
    testimonials: [],
    edits: new Set(),
    orders: 0,
  };
}

const FABRICS = ['Cotton', 'Linen', 'Silk', 'Khadi', 'Wool'];
const stockStreamOf = (productId: string, size: string | null) => `stock-${productId}${size ? `:${size}` : ''}`;
const inFifteenMinutes = (at: string) => new Date(Date.parse(at) + 900_000).toISOString();

/** The catalog: `count` products, a third sold by size, each with a million units in stock. */
async function createProducts(shop: Shop, count: number): Promise<void> {
  const { out, rnd, pick, now } = shop;
  const categories = ['Men', 'Women', 'Kids', 'Ethnic', 'Accessories'];
  for (let i = 0; i < count; i++) {
    const sizes = i % 3 === 0 ? ['S', 'M', 'L', 'XL'] : [];
    const p = {
      id: `gen-p${i}`,
      name: `${pick(FABRICS)} ${pick(['Kurta', 'Saree', 'Shirt', 'Dupatta'])} ${i}`,
      pricePaise: 29_900 + Math.floor(rnd() * 500) * 1_000,
      sizes,
    };
    shop.products.push(p);
    const at = now();
    const meta = { actor: 'admin', occurredAt: at };
    await out.emit(
      'catalog',
      `product-${p.id}`,
      {
        type: 'ProductCreated',
        data: {
          productId: p.id,
          name: p.name,
          pricePaise: p.pricePaise,
          description: `Handwoven ${p.name}`,
          category: pick(categories),
          size: '',
          color: pick(['Indigo', 'Maroon', 'White', 'Mustard']),
          brand: 'Kapda',
          material: pick(FABRICS),
          image: `/uploads/gen-${i}.jpg`,
          sizeLabels: sizes,
          createdAt: at,
        },
      },
      meta,
    );
    for (const size of sizes.length ? sizes : [null])
      await out.emit(
        'catalog',
        stockStreamOf(p.id, size),
        { type: 'StockLevelSet', data: { productId: p.id, size, available: 1_000_000, at } },
        meta,
      );
  }
}

/** Ten coupons, 10% off up to ₹500. */
async function createCoupons(shop: Shop): Promise<void> {
  for (let i = 0; i < 10; i++) {
    const c = { id: uuidOf(`coupon-${i}`), code: `FEST${i}` };
    shop.coupons.push(c);
    const at = shop.now();
    await shop.out.emit(
      'checkout',
      `coupon-${c.id}`,
      {
        type: 'CouponCreated',
        data: {
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
      },
      { actor: 'admin', occurredAt: at },
    );
  }
}

/** A shopper registers (and claims their e-mail). */
async function newUser(shop: Shop): Promise<void> {
  const n = shop.users.length;
  const u = { id: uuidOf(`user-${n}`), name: `Shopper ${n}`, email: `shopper${n}@example.in` };
  shop.users.push(u);
  const at = shop.now();
  const meta = { actor: u.id, occurredAt: at };
  await shop.out.emit(
    'accounts',
    `user-${u.id}`,
    {
      type: 'UserRegistered',
      data: {
        userId: u.id,
        name: u.name,
        email: u.email,
        phone: '+919800000000',
        passwordHash: 'scrypt$generated',
        isAdmin: false,
        registeredAt: at,
      },
    },
    meta,
  );
  await shop.out.emit(
    'accounts',
    `email-${u.email}`,
    { type: 'EmailClaimed', data: { email: u.email, userId: u.id } },
    meta,
  );
}

/** A shopper resets their password through an e-mailed link, then changes their phone and gender. */
async function updateProfile(shop: Shop): Promise<void> {
  const u = shop.pick(shop.users);
  const at = shop.now();
  const gender = shop.pick(['Male', 'Female', 'Other'] as const);
  const expiresAt = new Date(Date.parse(at) + 30 * 60_000).toISOString();
  const tokenHash = createHash('sha256').update(`reset-${u.id}-${at}`).digest('hex');
  await shop.out.emit(
    'accounts',
    `user-${u.id}`,
    { type: 'PasswordResetRequested', data: { userId: u.id, tokenHash, requestedAt: at, expiresAt } },
    { actor: u.id, occurredAt: at },
  );
  await shop.out.emit(
    'accounts',
    `user-${u.id}`,
    {
      type: 'PasswordReset',
      data: { userId: u.id, passwordHash: `scrypt$reset-${tokenHash.slice(0, 8)}`, resetAt: at },
    },
    { actor: u.id, occurredAt: at },
  );
  await shop.out.emit(
    'accounts',
    `user-${u.id}`,
    {
      type: 'UserProfileUpdated',
      data: {
        userId: u.id,
        name: u.name,
        email: u.email,
        phone: '+919811111111',
        dob: null,
        gender,
        updatedAt: at,
      },
    },
    { actor: u.id, occurredAt: at },
  );
}

/** A shopper's review, approved by the admin seven times in ten (the rest stay pending). */
async function submitTestimonial(shop: Shop): Promise<void> {
  const { out, rnd, now } = shop;
  const u = shop.pick(shop.users);
  const id = uuidOf(`testimonial-${out.counter}-${shop.testimonials.length}`);
  shop.testimonials.push(id);
  const at = now();
  await out.emit(
    'accounts',
    `testimonial-${id}`,
    {
      type: 'TestimonialSubmitted',
      data: {
        testimonialId: id,
        userId: u.id,
        rating: 1 + Math.floor(rnd() * 5),
        text: 'Lovely fabric',
        submittedAt: at,
      },
    },
    { actor: u.id, occurredAt: at },
  );
  if (rnd() < 0.7)
    await out.emit(
      'accounts',
      `testimonial-${id}`,
      {
        type: 'TestimonialModerated',
        data: { testimonialId: id, from: 'pending', to: 'approved', by: 'admin', at: now() },
      },
      { actor: 'admin', occurredAt: at },
    );
}

/** The admin edits, by `kind` in [0, 1): the bounds of each kind, in adminEdit's order. */
const EDIT_KINDS = [0.4, 0.5, 0.7, 0.8, 0.85, 0.95, 1];

/**
 * An admin edit; `kind` in [0, 1) picks which (by default at random): a price change, a change of sizes, a
 * delisting and relisting, a stock level set, a product deleted, a coupon updated or deleted.
 */
async function adminEdit(shop: Shop, kind?: number): Promise<void> {
  const { out, rnd, pick, now, products, coupons } = shop;
  const at = now();
  const meta = { actor: 'admin', occurredAt: at };
  const k = kind ?? rnd();
  shop.edits.add(EDIT_KINDS.findIndex((x) => k < x));
  const p = pick(products);
  if (k < 0.4)
    await out.emit(
      'catalog',
      `product-${p.id}`,
      { type: 'ProductDetailsChanged', data: { productId: p.id, pricePaise: (p.pricePaise += 1_000), changedAt: at } },
      meta,
    );
  else if (k < 0.5 && products.some((x) => x.sizes.length)) {
    const q = pick(products.filter((x) => x.sizes.length));
    q.sizes = q.sizes.length === 4 ? ['S', 'M', 'L', 'XL', 'XXL'] : ['S', 'M', 'L', 'XL'];
    await out.emit(
      'catalog',
      `product-${q.id}`,
      { type: 'ProductDetailsChanged', data: { productId: q.id, name: q.name, sizeLabels: q.sizes, changedAt: at } },
      meta,
    );
  } else if (k < 0.7) {
    await out.emit('catalog', `product-${p.id}`, { type: 'ProductDelisted', data: { productId: p.id, at } }, meta);
    await out.emit(
      'catalog',
      `product-${p.id}`,
      { type: 'ProductRelisted', data: { productId: p.id, at: now() } },
      meta,
    );
  } else if (k < 0.8) {
    const size = p.sizes.length ? pick(p.sizes) : null;
    await out.emit(
      'catalog',
      stockStreamOf(p.id, size),
      { type: 'StockLevelSet', data: { productId: p.id, size, available: 1_000_000, at } },
      meta,
    );
  } else if (k < 0.85 && products.length > 10) {
    products.splice(products.indexOf(p), 1);
    await out.emit('catalog', `product-${p.id}`, { type: 'ProductDeleted', data: { productId: p.id, at } }, meta);
  } else if (k < 0.95) {
    const c = pick(coupons);
    await out.emit(
      'checkout',
      `coupon-${c.id}`,
      {
        type: 'CouponUpdated',
        data: {
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
      },
      meta,
    );
  } else if (coupons.length > 3) {
    const c = pick(coupons);
    coupons.splice(coupons.indexOf(c), 1);
    await out.emit(
      'checkout',
      `coupon-${c.id}`,
      { type: 'CouponDeleted', data: { couponId: c.id, code: c.code, deletedAt: at } },
      meta,
    );
  }
}

/** One checkout of one line, from the stock hold to the payment dialog, as a sale's steps need it. */
interface Sale {
  user: User;
  product: Product;
  size: string | null;
  quantity: number;
  reservationId: string;
  razorpayOrderId: string;
  holdId: string;
  stockStream: string;
  payment: string;
  coupon: Coupon | null;
  priced: PricedOrder;
  holds: ReservedLine[];
  at: string;
}

/** The catalog holds the sale's units under `hold` from `from` for the reservation time. */
function reserveStock(
  shop: Shop,
  sale: Pick<Sale, 'product' | 'size' | 'quantity' | 'stockStream'>,
  hold: string,
  from: string,
  meta: Meta,
): Promise<void> {
  const { product, size, quantity } = sale;
  return shop.out.emit(
    'catalog',
    sale.stockStream,
    {
      type: 'StockReserved',
      data: { productId: product.id, size, reservationId: hold, quantity, at: from, expiresAt: inFifteenMinutes(from) },
    },
    meta,
  );
}

/**
 * A checkout: stock reserved, provider order created (now and then opened first), coupon use held, half the
 * time the payment dialog opened, now and then a failed payment attempt.
 */
async function checkout(shop: Shop): Promise<Sale> {
  const { out, rnd, pick, now } = shop;
  const user = pick(shop.users);
  const product = pick(shop.products);
  const size = product.sizes.length ? pick(product.sizes) : null;
  const quantity = 1 + Math.floor(rnd() * 3);
  const reservationId = uuidOf(`reservation-${out.counter}`);
  const razorpayOrderId = `order_${reservationId.replace(/-/g, '').slice(0, 14)}`;
  const holdId = `${reservationId}#0`;
  const at = now();
  const meta = { actor: user.id, correlationId: reservationId, occurredAt: at };
  const stockStream = stockStreamOf(product.id, size);
  await reserveStock(shop, { product, size, quantity, stockStream }, holdId, at, meta);
  const coupon = rnd() < 0.2 ? pick(shop.coupons) : null;
  const subtotalPaise = product.pricePaise * quantity;
  const discountPaise = coupon ? Math.min(50_000, Math.round(subtotalPaise / 10)) : 0;
  const priced: PricedOrder = {
    customer: { userId: user.id, name: user.name, email: user.email, phone: '+919800000000' },
    address: '12 MG Road, Bengaluru',
    pincode: '560001',
    lines: [
      {
        productId: product.id,
        name: product.name,
        image: '/uploads/x.jpg',
        size,
        color: null,
        quantity,
        unitPricePaise: product.pricePaise,
        lineTotalPaise: subtotalPaise,
      },
    ],
    subtotalPaise,
    couponCode: coupon?.code ?? null,
    discountPaise,
    shippingChargePaise: 0,
    deliveryChargePaise: 0,
    totalPaise: subtotalPaise - discountPaise,
  };
  // The generated holds carry no colour (ReservedLine's `color`), as this log always has: a seed still gives
  // the same log.
  const holds = [
    {
      productId: product.id,
      size,
      quantity,
      holdId,
      name: product.name,
      image: '/uploads/x.jpg',
      unitPricePaise: product.pricePaise,
      stockSize: size,
    },
  ] as ReservedLine[];
  const sale: Sale = {
    user,
    product,
    size,
    quantity,
    reservationId,
    razorpayOrderId,
    holdId,
    stockStream,
    payment: `payment-${razorpayOrderId}`,
    coupon,
    priced,
    holds,
    at,
  };
  if (rnd() < 0.02)
    await out.emit(
      'checkout',
      sale.payment,
      {
        type: 'PaymentOrderOpened',
        data: {
          razorpayOrderId,
          amountPaise: subtotalPaise - discountPaise,
          receipt: `rcpt_${out.counter}`,
          currency: 'INR',
          userId: user.id,
          createdAt: at,
          expiresAt: inFifteenMinutes(at),
        },
      },
      meta,
    );
  await out.emit(
    'checkout',
    sale.payment,
    {
      type: 'PaymentOrderCreated',
      data: {
        ...priced,
        razorpayOrderId,
        reservationId,
        holds,
        receipt: `rcpt_${out.counter}`,
        currency: 'INR',
        createdAt: at,
        expiresAt: inFifteenMinutes(at),
      },
    },
    meta,
  );
  if (coupon)
    await out.emit(
      'checkout',
      `coupon-${coupon.id}`,
      {
        type: 'CouponUseReserved',
        data: {
          couponId: coupon.id,
          code: coupon.code,
          reservationId,
          orderTotalPaise: subtotalPaise,
          discountPaise,
          reservedAt: at,
        },
      },
      meta,
    );
  // Half the buyers get as far as the payment dialog: the hold then lasts the full reservation time.
  if (rnd() < 0.5)
    await out.emit(
      'checkout',
      sale.payment,
      { type: 'PaymentDialogOpened', data: { razorpayOrderId, expiresAt: inFifteenMinutes(at), openedAt: at } },
      meta,
    );
  if (rnd() < 0.03)
    await out.emit(
      'checkout',
      sale.payment,
      { type: 'PaymentFailed', data: { razorpayOrderId, reason: 'card declined', failedAt: now() } },
      { actor: 'checkout', correlationId: reservationId, occurredAt: at },
    );
  return sale;
}

/**
 * The buyer cancelled the dialog and their payment still went through: the checkout expired (cancelled),
 * its stock went back, then was held again for the payment under a new reservation. Answers that hold.
 */
async function cancelThenRevive(
  shop: Shop,
  sale: Sale,
): Promise<{ reservationId: string; holdId: string; holds: ReservedLine[] }> {
  const { out, now } = shop;
  const { product, size, quantity, reservationId, razorpayOrderId, holdId } = sale;
  const cancelledAt = now();
  const cmeta = { actor: sale.user.id, correlationId: reservationId, occurredAt: cancelledAt };
  await out.emit(
    'checkout',
    sale.payment,
    {
      type: 'PaymentOrderExpired',
      data: { razorpayOrderId, reservationId, expiredAt: cancelledAt, reason: 'cancelled' },
    },
    cmeta,
  );
  await out.emit(
    'catalog',
    sale.stockStream,
    {
      type: 'StockReleased',
      data: { productId: product.id, size, reservationId: holdId, quantity, reason: 'cancelled', at: cancelledAt },
    },
    cmeta,
  );
  const revivedAt = now();
  const revived = uuidOf(`revival-${out.counter}`);
  const revivedHold = `${revived}#0`;
  const holds = sale.holds.map((h) => ({ ...h, holdId: revivedHold }));
  const rmeta = { actor: 'webhook', correlationId: revived, occurredAt: revivedAt };
  await reserveStock(shop, sale, revivedHold, revivedAt, rmeta);
  await out.emit(
    'checkout',
    sale.payment,
    { type: 'PaymentOrderRevived', data: { razorpayOrderId, reservationId: revived, holds, revivedAt } },
    rmeta,
  );
  return { reservationId: revived, holdId: revivedHold, holds };
}

/** The sale is paid (a few after a cancel, held again): payment verified, stock and coupon use committed, order placed. */
async function pay(shop: Shop, sale: Sale): Promise<void> {
  const { out, rnd, now } = shop;
  const { product, size, quantity, coupon, priced, razorpayOrderId } = sale;
  let paid = { reservationId: sale.reservationId, holdId: sale.holdId, holds: sale.holds };
  if (!coupon && rnd() < 0.04) paid = await cancelThenRevive(shop, sale);
  const paidAt = now();
  const pmeta = { actor: 'checkout', correlationId: paid.reservationId, occurredAt: paidAt };
  await out.emit(
    'checkout',
    sale.payment,
    {
      type: 'PaymentVerified',
      data: {
        ...priced,
        razorpayOrderId,
        razorpayPaymentId: `pay_${razorpayOrderId.slice(6)}`,
        reservationId: paid.reservationId,
        holds: paid.holds,
        currency: 'INR',
        via: 'checkout',
        verifiedAt: paidAt,
      },
    },
    pmeta,
  );
  await out.emit(
    'catalog',
    sale.stockStream,
    { type: 'StockCommitted', data: { productId: product.id, size, reservationId: paid.holdId, quantity, at: paidAt } },
    pmeta,
  );
  if (coupon)
    await out.emit(
      'checkout',
      `coupon-${coupon.id}`,
      {
        type: 'CouponUseCommitted',
        data: { couponId: coupon.id, reservationId: sale.reservationId, committedAt: paidAt },
      },
      pmeta,
    );
  await placeOrder(shop, sale, paidAt);
}

/** The order placed from a paid sale, then up to two delivery steps, now and then seen, rarely deleted once delivered. */
async function placeOrder(shop: Shop, sale: Sale, paidAt: string): Promise<void> {
  const { out, rnd, now } = shop;
  shop.orders += 1;
  const orderNumber = `ORD-${100000 + shop.orders}`;
  const stream = `order-${orderNumber}`;
  const { customer, ...details } = sale.priced;
  await out.emit(
    'orders',
    stream,
    {
      type: 'OrderPlaced',
      data: {
        ...details,
        orderNumber,
        razorpayOrderId: sale.razorpayOrderId,
        razorpayPaymentId: `pay_${sale.razorpayOrderId.slice(6)}`,
        userId: sale.user.id,
        customer: { name: customer.name, email: customer.email, phone: customer.phone },
        paymentStatus: 'Paid',
        deliveryStatus: 'Processing',
        placedAt: paidAt,
      },
    },
    { actor: sale.user.id, occurredAt: paidAt },
  );
  // Now and then Shiprocket refuses the shipment first (no draw: every 29th order). Half of those stay refused
  // (the admin has still to act); the others are shipped once the address is set right, which clears it.
  if (shop.orders % 29 === 0) {
    const refusedAt = now();
    await out.emit(
      'orders',
      stream,
      {
        type: 'ShipmentRefused',
        data: { orderNumber, reason: 'The billing pincode must be 6 digits.', at: refusedAt },
      },
      { actor: 'shipping', occurredAt: refusedAt },
    );
    if (shop.orders % 58 !== 0) return;
  }
  // Its shipment (the AWB is assigned at once); each delivery step below comes with the tracking update.
  const awb = `SB${String(shop.orders).padStart(10, '0')}`;
  const shippedAt = now();
  await out.emit(
    'orders',
    stream,
    {
      type: 'ShipmentCreated',
      data: {
        orderNumber,
        shipmentId: `ship_${shop.orders}`,
        providerOrderId: String(shop.orders),
        awb,
        courier: 'Sandbox Express',
        trackingUrl: `https://shiprocket.co/tracking/${awb}`,
        shippingStatus: 'AWB ASSIGNED',
        createdAt: shippedAt,
      },
    },
    { actor: 'shipping', occurredAt: shippedAt },
  );
  const steps = Math.floor(rnd() * 3);
  const path = ['Processing', 'Out for Delivery', 'Delivered'] as const;
  if (steps === 0 && rnd() < 0.1) {
    // Cancelled before it left (by the shopper, or an admin with a reason), then refunded.
    const cancelledAt = now();
    const byShopper = rnd() < 0.5;
    await out.emit(
      'orders',
      stream,
      {
        type: 'OrderCancelled',
        data: {
          orderNumber,
          userId: sale.user.id,
          reason: byShopper ? 'Cancelled by the customer' : 'Out of stock at the warehouse',
          cancelledBy: byShopper ? sale.user.id : 'admin',
          cancelledAs: byShopper ? 'shopper' : 'admin',
          cancelledAt,
          razorpayOrderId: sale.razorpayOrderId,
          razorpayPaymentId: `pay_${sale.razorpayOrderId.slice(6)}`,
          couponCode: details.couponCode,
          totalPaise: details.totalPaise,
        },
      },
      { actor: byShopper ? sale.user.id : 'admin', occurredAt: cancelledAt },
    );
    // Its shipment cancelled at Shiprocket (the parcel was still awaiting pickup), half a second later: the clock
    // always moves a second or more, so this is before the refund, and the log's other draws stay as they were.
    const shipmentCancelledAt = new Date(Date.parse(cancelledAt) + 500).toISOString();
    await out.emit(
      'orders',
      stream,
      { type: 'ShipmentCancelled', data: { orderNumber, awb, cancelledAt: shipmentCancelledAt } },
      { actor: 'shipping', occurredAt: shipmentCancelledAt },
    );
    const refundedAt = now();
    await out.emit(
      'orders',
      stream,
      {
        type: 'OrderRefunded',
        data: { orderNumber, refundId: `rfnd_${shop.orders}`, amountPaise: details.totalPaise, refundedAt },
      },
      { actor: 'refunding', occurredAt: refundedAt },
    );
    if (sale.coupon)
      await out.emit(
        'checkout',
        `coupon-${sale.coupon.id}`,
        {
          type: 'CouponUseReturned',
          data: { couponId: sale.coupon.id, reservationId: sale.reservationId, returnedAt: cancelledAt },
        },
        { actor: 'cancellation', correlationId: sale.reservationId, occurredAt: cancelledAt },
      );
    return;
  }
  for (let s = 0; s < steps; s++) {
    const updatedAt = now();
    await out.emit(
      'orders',
      stream,
      {
        type: 'ShippingStatusUpdated',
        data: {
          orderNumber,
          awb,
          shippingStatus: s === 0 ? 'OUT FOR DELIVERY' : 'DELIVERED',
          updatedAt,
          source: 'webhook',
        },
      },
      { actor: 'shiprocket', occurredAt: updatedAt },
    );
    const changedAt = now();
    await out.emit(
      'orders',
      stream,
      {
        type: 'DeliveryStatusChanged',
        data: { orderNumber, from: path[s]!, to: path[s + 1]!, changedBy: 'admin', changedAt },
      },
      { actor: 'admin', occurredAt: changedAt },
    );
  }
  if (rnd() < 0.3) {
    const seenAt = now();
    await out.emit(
      'orders',
      stream,
      { type: 'OrderMarkedSeen', data: { orderNumber, seenBy: 'admin', seenAt } },
      { actor: 'admin', occurredAt: seenAt },
    );
  }
  if (steps === 2 && rnd() < 0.02) {
    const deletedAt = now();
    await out.emit(
      'orders',
      stream,
      { type: 'OrderDeleted', data: { orderNumber, deletedBy: 'admin', deletedAt } },
      { actor: 'admin', occurredAt: deletedAt },
    );
  }
}

/** The sale's hold lapsed unpaid: the checkout expires, its stock and coupon use go back. */
async function expire(shop: Shop, sale: Sale): Promise<void> {
  const { out } = shop;
  const { product, size, quantity, reservationId, coupon } = sale;
  const expiredAt = shop.now();
  const emeta = { actor: 'expiry', correlationId: reservationId, occurredAt: expiredAt };
  await out.emit(
    'checkout',
    sale.payment,
    { type: 'PaymentOrderExpired', data: { razorpayOrderId: sale.razorpayOrderId, reservationId, expiredAt } },
    emeta,
  );
  await out.emit(
    'catalog',
    sale.stockStream,
    {
      type: 'StockReleased',
      data: { productId: product.id, size, reservationId: sale.holdId, quantity, reason: 'expired', at: expiredAt },
    },
    emeta,
  );
  if (coupon)
    await out.emit(
      'checkout',
      `coupon-${coupon.id}`,
      { type: 'CouponUseReleased', data: { couponId: coupon.id, reservationId, releasedAt: expiredAt } },
      emeta,
    );
}

/** A sale attempt: a checkout, then paid (85%) or expired; the last few of the log still wait for their payment. */
async function saleAttempt(shop: Shop, events: number): Promise<void> {
  const sale = await checkout(shop);
  // The last few checkouts are still waiting for their payment: their holds are live.
  if (events - shop.out.total() < 40) return;
  if (shop.rnd() < 0.85) await pay(shop, sale);
  else await expire(shop, sale);
}

/**
 * The log's end: every kind of admin edit at least once, even in a small log (the replay's fold tests rely
 * on it); an admin promoted; two reviews at least, so that one is taken down and the other stays.
 */
async function closeLog(shop: Shop): Promise<void> {
  for (const [i, k] of [0, 0.45, 0.6, 0.75, 0.82, 0.9, 0.97].entries())
    if (!shop.edits.has(i)) await adminEdit(shop, k);
  const promotedAt = shop.now();
  const admin = shop.users[0]!.id;
  const meta = { actor: 'admin', occurredAt: promotedAt };
  await shop.out.emit(
    'accounts',
    `user-${admin}`,
    { type: 'UserPromotedToAdmin', data: { userId: admin, promotedAt } },
    meta,
  );
  while (shop.testimonials.length < 2) await submitTestimonial(shop);
  const taken = shop.testimonials[0]!;
  await shop.out.emit(
    'accounts',
    `testimonial-${taken}`,
    { type: 'TestimonialDeleted', data: { testimonialId: taken, by: 'admin', at: promotedAt } },
    meta,
  );
}

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
    const seed = opts.seed ?? 1;
    const out = new LogWriter(pool, seed);
    const shop = newShop(out, seed);
    await createProducts(shop, Math.max(20, Math.round(opts.events / 500)));
    await createCoupons(shop);
    for (let i = 0; i < 50; i++) await newUser(shop);
    while (out.total() < opts.events) {
      const r = shop.rnd();
      if (r < 0.04) await newUser(shop);
      else if (r < 0.05) await updateProfile(shop);
      else if (r < 0.058) await adminEdit(shop);
      else if (r < 0.063) await submitTestimonial(shop);
      else {
        await saleAttempt(shop, opts.events);
        if (out.written > 0 && out.written % 100_000 < 5_000)
          log(`${out.written.toLocaleString('en-US')} events written`);
      }
    }
    await closeLog(shop);
    await out.flushAll();
    if (shop.orders > 0) await pool.query(`SELECT setval('orders.order_number_seq', $1)`, [100000 + shop.orders]);
    return { url, events: out.written, orders: shop.orders, seconds: (Date.now() - started) / 1000 };
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
