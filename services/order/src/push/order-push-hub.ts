import type { Request, Response } from 'express';
import type pg from 'pg';
import type { AuthUser } from '@shop/shared/auth/tokens';
import { TooManyRequestsError, UnavailableError } from '@shop/shared/errors/errors';
import type { PubSub } from '@shop/shared/cache/types';
import type { Logger } from '@shop/shared/observability/logger';
import { dashboardStats } from '../read-models/orders/dashboard-stats.ts';
import { findOrders } from '../read-models/orders/orders-queries.ts';
import { confirmationView } from '../confirmation/confirmation-view.ts';
import { findOrderNumberByPayment } from '../placement/order-placement.ts';
import { DASHBOARD_FIGURES_CHANNEL } from './dashboard-changes.ts';
import { decodeOrderChanges, ORDER_CHANGES_CHANNEL, type OrderChange } from './order-changes.ts';

export interface OrderPushOptions {
  /** Comment line sent to every stream this often, so proxies and browsers keep it open (default 15 s). */
  heartbeatMs?: number;
  /** Reconnect delay suggested to EventSource (`retry:`), in ms (default 3 s). */
  retryMs?: number;
  /** A client this far behind (bytes queued) is dropped; EventSource reconnects and refetches (default 1 MiB). */
  maxBufferedBytes?: number;
  /** Open streams one account may hold in this process; one more is refused with 429 (default 5). */
  maxStreamsPerUser?: number;
}

interface Stream {
  /** The account, or null for a confirmation stream (opened by a confirmation link's token, no sign-in). */
  readonly userId: string | null;
  readonly isAdmin: boolean;
  /** A confirmation stream's one order, by its payment order: the stream waits for it to be listed. */
  readonly razorpayOrderId: string | null;
  /** What maxStreamsPerUser counts: the account, or a confirmation stream's payment order. */
  readonly holder: string;
  readonly res: Response;
  open: boolean;
}

/** One Server-Sent Events frame. JSON.stringify escapes newlines, so data is always one line. */
export const sseFrame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * The order push streams of this process. The orders projection announces committed changes on pub/sub
 * (Redis in distributed mode, so every process hears every change); each announcement is read from the
 * projection once and fanned out: admins get every order and the dashboard figures, a shopper only their
 * own orders. The order service's catalog and accounts read models announce changed dashboard figures on
 * another channel; admins then get fresh figures too. Announcements that arrive while a delivery runs are
 * merged into the next one, so a burst of orders costs a few reads, not one per order per stream.
 */
export class OrderPushHub {
  private readonly streams = new Set<Stream>();
  /** Open streams per user id. */
  private readonly perUser = new Map<string, number>();
  /** Changes announced and not yet delivered, by order number (a later change of one order replaces it). */
  private readonly pending = new Map<string, OrderChange>();
  /** Admin streams that still need their first figures. */
  private readonly awaitingStats = new Set<Stream>();
  /** Confirmation streams just opened: their order may be listed already. */
  private readonly awaitingFirstLook = new Set<Stream>();
  /** A catalog or accounts figure changed: every admin stream needs fresh figures. */
  private figuresChanged = false;
  private delivering = false;
  /** stop() ran: the process is shutting down, and no stream opens here any more. */
  private stopped = false;
  private heartbeat: NodeJS.Timeout | undefined;
  private unsubscribe: (() => Promise<void>) | undefined;
  private unsubscribeFigures: (() => Promise<void>) | undefined;
  private readonly heartbeatMs: number;
  private readonly retryMs: number;
  private readonly maxBufferedBytes: number;
  private readonly maxStreamsPerUser: number;

  constructor(
    private readonly deps: { pool: pg.Pool; pubsub: PubSub; logger: Logger; clock: () => Date },
    options: OrderPushOptions = {},
  ) {
    this.heartbeatMs = options.heartbeatMs ?? 15_000;
    this.retryMs = options.retryMs ?? 3_000;
    this.maxBufferedBytes = options.maxBufferedBytes ?? 1024 * 1024;
    this.maxStreamsPerUser = options.maxStreamsPerUser ?? 5;
  }

  async start(): Promise<void> {
    this.stopped = false;
    this.unsubscribe ??= await this.deps.pubsub.subscribe(ORDER_CHANGES_CHANNEL, (message) => {
      const changes = decodeOrderChanges(message);
      if (!changes) return this.deps.logger.warn({ channel: ORDER_CHANGES_CHANNEL }, 'ignoring a malformed message');
      if (this.streams.size === 0) return;
      for (const c of changes) {
        const before = this.pending.get(c.orderNumber);
        this.pending.set(c.orderNumber, { ...c, deleted: c.deleted || (before?.deleted ?? false) });
      }
      this.kick();
    });
    this.unsubscribeFigures ??= await this.deps.pubsub.subscribe(DASHBOARD_FIGURES_CHANNEL, () => {
      if (![...this.streams].some((s) => s.isAdmin)) return;
      this.figuresChanged = true;
      this.kick();
    });
  }

  /**
   * Ends every stream and stops listening (the process is shutting down). Each stream gets a last `closing`
   * event and then ends cleanly, so EventSource reconnects (after `retry:`) to a process that stays.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    const last = sseFrame('closing', { message: 'Shutting down' });
    for (const s of [...this.streams]) {
      this.write(s, last);
      this.close(s);
    }
    await this.unsubscribe?.();
    this.unsubscribe = undefined;
    await this.unsubscribeFigures?.();
    this.unsubscribeFigures = undefined;
  }

  /** Number of open streams (health and tests). */
  get size(): number {
    return this.streams.size;
  }

  /**
   * Turns an authenticated request into a push stream: `ready` first, then changes until the client leaves.
   * One account holds at most `maxStreamsPerUser` streams (a few tabs); one more throws a 429 before any
   * header is sent, so one user cannot hold hundreds of connections open.
   */
  open(req: Request, res: Response, user: AuthUser): void {
    const stream = this.begin(req, res, {
      userId: user.id,
      isAdmin: user.isAdmin,
      razorpayOrderId: null,
      holder: user.id,
    });
    // After `ready` the client (re)loads its list: anything committed before then is in that read,
    // anything after comes down this stream.
    this.write(stream, `retry: ${this.retryMs}\n${sseFrame('ready', { userId: user.id, isAdmin: user.isAdmin })}`);
    if (user.isAdmin) {
      // Through the delivery loop, so these figures can never overtake newer ones.
      this.awaitingStats.add(stream);
      this.kick();
    }
  }

  /**
   * A confirmation stream: the one order of a verified payment (`razorpayOrderId`, read from the confirmation
   * link's token by the caller), for whoever holds the link. `ready` first; then, once the order is placed and
   * listed, one `order` event (the order as the confirmation read answers it) and the stream ends. An order
   * listed before the stream opened is sent at once: the stream is registered before that first look, so an
   * order listed in between is announced to it. At most `maxStreamsPerUser` streams per payment order (429).
   */
  openConfirmation(req: Request, res: Response, razorpayOrderId: string): void {
    const stream = this.begin(req, res, {
      userId: null,
      isAdmin: false,
      razorpayOrderId,
      holder: `payment:${razorpayOrderId}`,
    });
    this.write(stream, `retry: ${this.retryMs}\n${sseFrame('ready', {})}`);
    this.awaitingFirstLook.add(stream);
    this.kick();
  }

  private begin(req: Request, res: Response, who: Omit<Stream, 'res' | 'open'>): Stream {
    if (this.stopped) throw new UnavailableError('Shutting down');
    const held = this.perUser.get(who.holder) ?? 0;
    if (held >= this.maxStreamsPerUser)
      throw new TooManyRequestsError(
        who.razorpayOrderId
          ? `Too many open streams for this order (at most ${this.maxStreamsPerUser}): close another tab or window of it and try again`
          : `Too many open order streams for this account (at most ${this.maxStreamsPerUser}): close another tab or window of the shop and try again`,
      );
    this.perUser.set(who.holder, held + 1);
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache, no-transform');
    res.setHeader('Connection', 'keep-alive');
    // nginx and similar proxies buffer responses unless told not to.
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    req.socket.setNoDelay(true);
    req.socket.setKeepAlive(true);

    const stream: Stream = { ...who, res, open: true };
    this.streams.add(stream);
    res.on('close', () => this.close(stream));
    this.heartbeat ??= setInterval(() => {
      for (const s of this.streams) this.write(s, ': heartbeat\n\n');
    }, this.heartbeatMs).unref();
    return stream;
  }

  private close(stream: Stream): void {
    if (!stream.open) return;
    stream.open = false;
    this.streams.delete(stream);
    const held = (this.perUser.get(stream.holder) ?? 1) - 1;
    if (held > 0) this.perUser.set(stream.holder, held);
    else this.perUser.delete(stream.holder);
    this.awaitingStats.delete(stream);
    this.awaitingFirstLook.delete(stream);
    if (!stream.res.writableEnded) stream.res.end();
    if (this.streams.size === 0) {
      clearInterval(this.heartbeat);
      this.heartbeat = undefined;
      this.pending.clear();
      this.figuresChanged = false;
    }
  }

  private write(stream: Stream, frame: string): void {
    if (!stream.open) return;
    if (stream.res.writableLength > this.maxBufferedBytes) {
      this.deps.logger.warn({ userId: stream.userId }, 'push stream client too slow; closing it');
      return this.close(stream);
    }
    stream.res.write(frame);
  }

  private kick(): void {
    if (this.delivering) return;
    this.delivering = true;
    void this.drain();
  }

  private async drain(): Promise<void> {
    try {
      while (
        this.pending.size > 0 ||
        this.awaitingStats.size > 0 ||
        this.awaitingFirstLook.size > 0 ||
        this.figuresChanged
      ) {
        const changes = [...this.pending.values()];
        this.pending.clear();
        const newcomers = [...this.awaitingStats];
        this.awaitingStats.clear();
        const firstLooks = [...this.awaitingFirstLook];
        this.awaitingFirstLook.clear();
        const figuresChanged = this.figuresChanged;
        this.figuresChanged = false;
        try {
          await this.deliver(changes, newcomers, firstLooks, figuresChanged);
        } catch (err) {
          // These changes are not pushed; the next ones are. Clients still see them on their next read.
          this.deps.logger.warn({ err, orders: changes.length }, 'could not push order changes');
        }
      }
    } finally {
      this.delivering = false;
    }
  }

  private async deliver(
    changes: OrderChange[],
    newcomers: Stream[],
    firstLooks: Stream[],
    figuresChanged: boolean,
  ): Promise<void> {
    const streams = [...this.streams];
    const admins = streams.filter((s) => s.isAdmin);
    const shoppers = new Set(streams.filter((s) => !s.isAdmin && s.userId !== null).map((s) => s.userId));
    const wanted = changes.filter((c) => admins.length > 0 || (c.userId !== null && shoppers.has(c.userId)));
    // A confirmation stream waits for an order not placed when it opened: any order listed since may be it.
    const awaiting = streams.filter((s) => s.razorpayOrderId !== null);
    const looked = await Promise.all(
      firstLooks.filter((s) => s.open).map((s) => findOrderNumberByPayment(this.deps.pool, s.razorpayOrderId!)),
    );
    const listed = [
      ...(awaiting.length > 0 ? changes : wanted).filter((c) => !c.deleted).map((c) => c.orderNumber),
      ...looked.filter((n): n is string => n !== null),
    ];
    if (wanted.length > 0 || listed.length > 0) {
      const views = await findOrders(this.deps.pool, [...new Set(listed)]);
      if (awaiting.length > 0) {
        const byPayment = new Map([...views.values()].map((v) => [v.razorpayOrderId, v]));
        for (const s of awaiting) {
          const order = byPayment.get(s.razorpayOrderId!);
          if (!order) continue;
          this.write(s, sseFrame('order', confirmationView(order)));
          this.close(s);
        }
      }
      for (const c of wanted) {
        // Not on the list any more (possibly deleted after this announcement): tell clients to drop it.
        const frame = sseFrame('order', views.get(c.orderNumber) ?? { orderNumber: c.orderNumber, deleted: true });
        for (const s of streams) if (s.isAdmin || (c.userId !== null && s.userId === c.userId)) this.write(s, frame);
      }
    }
    const statsTo = new Set(
      [...(wanted.length > 0 || figuresChanged ? admins : []), ...newcomers].filter((s) => s.open),
    );
    if (statsTo.size > 0) {
      const frame = sseFrame('stats', await dashboardStats(this.deps.pool, this.deps.clock()));
      for (const s of statsTo) this.write(s, frame);
    }
  }
}
