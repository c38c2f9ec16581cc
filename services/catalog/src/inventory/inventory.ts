import type pg from 'pg';
import type { InventoryPort, ReserveLine, ReserveResult, ReservedLine } from '@shop/shared/contracts/inventory';
import { InsufficientStockError } from '../stock/decider.ts';
import { stockStreamId } from '../stock/events.ts';
import { lapsedHolds } from '../read-models/stock-holds/stock-holds-queries.ts';
import type { ProductFacts, ProductFactsView } from './product-facts.ts';
import { holdsOfReservation, type HoldRef } from './reservations.ts';
import type { StockWriter } from './stock-writer.ts';

type Refusal = { ok: false; title: string; message: string };

/** A hold id no reservation has (`<reservationId>#<line>`): asks a writer about a hold not yet made. */
export const NO_HOLD = '#';

/** Whether the product is sold by size now: some offered size holds units (then its general stock is 0). */
const soldBySize = (product: Pick<ProductFacts, 'sizeQuantities'>) =>
  Object.values(product.sizeQuantities).some((n) => n > 0);

/** Whether a line with this size draws on the size's stock (the seeds' rule), else on the general quantity. */
export function stockSizeFor(product: Pick<ProductFacts, 'sizeQuantities'>, size: string | null): string | null {
  if (size === null) return null;
  return soldBySize(product) ? size : null;
}

/**
 * Splits a line with no size over a product sold by size, largest stock first: such a line needs only the
 * product's total (the seeds' rule), and every unit it takes comes out of one size. null when the sizes
 * together hold fewer than `quantity`.
 */
export function allocateAcrossSizes(
  available: Array<[string, number]>,
  quantity: number,
): Array<[string, number]> | null {
  const parts: Array<[string, number]> = [];
  let left = quantity;
  for (const [size, n] of [...available].sort((a, b) => b[1] - a[1])) {
    if (left === 0) break;
    const take = Math.min(left, n);
    if (take > 0) parts.push([size, take]);
    left -= take;
  }
  return left === 0 ? parts : null;
}

function shortage(name: string, line: ReserveLine, stockSize: string | null, available: number): Refusal {
  return stockSize !== null
    ? {
        ok: false,
        title: 'Size not available',
        message: `${name} - Size ${stockSize} only has ${available} item(s) available. You requested ${line.quantity}.`,
      }
    : {
        ok: false,
        title: 'Not enough stock',
        message: `${name} only has ${available} item(s) available. You requested ${line.quantity}.`,
      };
}

/**
 * The refusal `reserve` would answer for these lines, when it is certain from what is known without asking a
 * stock stream: every line on a stock of its own (no line split over sizes, no two lines on one stock), each
 * product known and on sale, and every line's stock sure to refuse it (`soldOut`: the units on sale when the
 * stock certainly cannot take `quantity` now, else null). Then `reserve` would hold nothing and name the
 * first line, as this does. null on any doubt. The inventory asks its stock writer (refusalFromMemory); the
 * distributed gateway asks the sold-out flags the catalog publishes (sold-out-beacon.ts).
 */
export async function certainRefusal(
  lines: ReserveLine[],
  productOf: (id: string) => Promise<Pick<ProductFacts, 'id' | 'name' | 'isDelisted' | 'sizeQuantities'> | null>,
  soldOut: (stream: string, quantity: number, productId: string) => number | null,
): Promise<Refusal | null> {
  if (lines.length === 0) return null;
  const streams = new Set<string>();
  let first: Refusal | null = null;
  for (const line of lines) {
    const product = await productOf(line.productId);
    if (!product || product.isDelisted) return null;
    if (line.size === null && soldBySize(product)) return null;
    const stockSize = stockSizeFor(product, line.size);
    if (stockSize !== null && !(stockSize in product.sizeQuantities)) return null;
    const stream = stockStreamId(product.id, stockSize);
    if (streams.has(stream)) return null;
    streams.add(stream);
    const available = soldOut(stream, line.quantity, product.id);
    if (available === null) return null;
    first ??= shortage(product.name, line, stockSize, available);
  }
  return first;
}

/**
 * The catalog's inventory and its reservations. A reservation (an id, its lines, when it lapses) belongs to
 * the catalog: its holds sit on the stock streams under `<reservationId>#<line>`, each with the catalog's
 * own expiry, so checkout commits or releases it by its id alone and the catalog's sweep gives back any
 * that nobody settles (a checkout that crashed before recording its order). Lines are validated with the
 * seeds' messages and priced from the in-memory product facts, never from the client; a sold-out stream
 * refuses in memory (see StockWriter).
 */
export class Inventory implements InventoryPort {
  constructor(
    private readonly db: pg.Pool,
    private readonly writer: StockWriter,
    private readonly products: ProductFactsView,
    private readonly clock: () => Date,
    /** How long a hold lasts if no checkout settles it (see holdBackstopMs); null = until settled. */
    private readonly holdBackstopMs: number | null = null,
  ) {}

  async reserve(reservationId: string, lines: ReserveLine[]): Promise<ReserveResult> {
    const planned: ReservedLine[] = [];
    /** Units this reservation's earlier lines take from a stock (lines of one product and size add up). */
    const taking = (productId: string, stockSize: string | null) =>
      planned
        .filter((p) => p.productId === productId && p.stockSize === stockSize)
        .reduce((sum, p) => sum + p.quantity, 0);
    /** Units the reservation's earlier lines of this product with this size (or none) ask for. */
    const asked = (line: ReserveLine, upTo: number) =>
      lines
        .slice(0, upTo)
        .filter((l) => l.productId === line.productId && l.size === line.size)
        .reduce((sum, l) => sum + l.quantity, 0);
    for (const [i, line] of lines.entries()) {
      const product = await this.products.get(line.productId);
      if (!product)
        return { ok: false, title: 'Product not available', message: 'A product in your cart is no longer available' };
      if (product.isDelisted)
        return { ok: false, title: 'Product not available', message: `${product.name} is no longer available` };
      const hold = {
        ...line,
        holdId: `${reservationId}#${i}`,
        name: product.name,
        image: product.image,
        unitPricePaise: product.pricePaise,
      };
      if (line.size === null && soldBySize(product)) {
        // Parts of one line share its hold id: each sits on its own size's stream.
        const sizes = await this.sizeStock(product);
        const parts = allocateAcrossSizes(
          sizes.map(([size, n]) => [size, Math.max(0, n - taking(product.id, size))]),
          line.quantity,
        );
        if (!parts)
          return shortage(
            product.name,
            { ...line, quantity: line.quantity + asked(line, i) },
            null,
            sizes.reduce((sum, [, n]) => sum + n, 0),
          );
        for (const [size, quantity] of parts) planned.push({ ...hold, quantity, stockSize: size });
        continue;
      }
      const stockSize = stockSizeFor(product, line.size);
      if (stockSize !== null && !(stockSize in product.sizeQuantities))
        return shortage(product.name, line, stockSize, 0);
      const before = taking(product.id, stockSize);
      if (before > 0) {
        // Another line already takes from this stock: check the lines together, so the refusal names what
        // they ask for together and what the stock has (not what is left after the first line's hold).
        const available = Math.max(0, await this.writer.available(stockStreamId(product.id, stockSize)));
        if (available < before + line.quantity)
          return shortage(product.name, { ...line, quantity: before + line.quantity }, stockSize, available);
      }
      planned.push({ ...hold, stockSize });
    }
    const now = this.clock();
    const expiresAt = this.holdBackstopMs === null ? undefined : new Date(now.getTime() + this.holdBackstopMs);
    const results = await Promise.allSettled(
      planned.map((l) =>
        this.writer.execute(stockStreamId(l.productId, l.stockSize), {
          type: 'ReserveStock',
          data: {
            productId: l.productId,
            size: l.stockSize,
            reservationId: l.holdId,
            quantity: l.quantity,
            now,
            expiresAt,
          },
        }),
      ),
    );
    const failedAt = results.findIndex((r) => r.status === 'rejected');
    if (failedAt === -1) return { ok: true, lines: planned };
    // All or nothing: give back what this attempt did hold.
    await this.settle(
      planned.filter((_, i) => results[i]!.status === 'fulfilled'),
      'release',
      'released',
    );
    const reason = (results[failedAt] as PromiseRejectedResult).reason;
    if (reason instanceof InsufficientStockError) {
      const held = planned[failedAt]!;
      const line = lines[Number(held.holdId.slice(held.holdId.lastIndexOf('#') + 1))]!;
      if (line.size === null && held.stockSize !== null) {
        // A split line lost a race for one of its sizes: say what the product has now.
        const product = await this.products.get(line.productId);
        const sizes = product ? await this.sizeStock(product) : [];
        return shortage(
          held.name,
          line,
          null,
          sizes.reduce((sum, [, n]) => sum + n, 0),
        );
      }
      // Lines of this reservation on the same stock are named together, with what the stock had for them.
      const same = (p: ReservedLine) => p.productId === held.productId && p.stockSize === held.stockSize;
      const together = planned.filter(same).reduce((sum, p) => sum + p.quantity, 0);
      const heldHere = planned
        .filter((p, j) => same(p) && results[j]!.status === 'fulfilled')
        .reduce((sum, p) => sum + p.quantity, 0);
      return shortage(held.name, { ...line, quantity: together }, held.stockSize, reason.available + heldHere);
    }
    throw reason;
  }

  /**
   * The refusal `reserve` would answer for these lines now, when it is certain from memory alone: every line
   * on a stock of its own (no line split over sizes, no two lines on one stock), each product known and on
   * sale, and every stock's writer sure it cannot take the line (StockWriter.soldOutFor). Then `reserve`
   * would hold nothing and name the first line, as this does. null on any doubt: `reserve` decides then.
   * Holds nothing, reads no stream and writes nothing.
   */
  refusalFromMemory(lines: ReserveLine[]): Promise<Refusal | null> {
    return certainRefusal(
      lines,
      (id) => this.products.get(id),
      (stream, quantity) => this.writer.soldOutFor(stream, NO_HOLD, quantity),
    );
  }

  /** Each offered size's units as its stock stream's writer knows them now. */
  private async sizeStock(product: ProductFacts): Promise<Array<[string, number]>> {
    return Promise.all(
      Object.keys(product.sizeQuantities).map(
        async (size) =>
          [size, Math.max(0, await this.writer.available(stockStreamId(product.id, size)))] as [string, number],
      ),
    );
  }

  /**
   * Gives back the holds whose backstop has passed and that no checkout settled (e.g. its process died
   * between holding stock and recording the order), oldest first; answers how many it actually released.
   */
  async releaseLapsedHolds(limit = 500): Promise<number> {
    const lapsed = await lapsedHolds(this.db, this.clock(), limit);
    const released = await this.settle(
      lapsed.map((h) => ({ holdId: h.holdId, productId: h.productId, stockSize: h.size })),
      'release',
      'expired: no checkout settled the hold',
    );
    // A hold settled since the read model listed it releases nothing (the decider answers no events).
    return released;
  }

  /** Returns the reservation's held units to stock (expiry, failure). Idempotent. */
  async release(reservationId: string, reason = 'released'): Promise<void> {
    await this.settle(await holdsOfReservation(this.db, reservationId), 'release', reason);
  }

  /** Returns a cancelled order's sold units (or its still-held ones) to stock. Idempotent. */
  async returnSale(reservationId: string, reason = 'order cancelled'): Promise<void> {
    await this.settle(await holdsOfReservation(this.db, reservationId), 'return', reason);
  }

  /** Turns the reservation into a sale. Idempotent. */
  async commit(reservationId: string): Promise<void> {
    await this.settle(await holdsOfReservation(this.db, reservationId), 'commit');
  }

  /** Releases or commits each hold on its stream; answers how many holds changed. */
  private async settle(
    holds: HoldRef[],
    action: 'release' | 'return' | 'commit',
    reason = 'released',
  ): Promise<number> {
    const now = this.clock();
    const outcomes = await Promise.all(
      holds.map((h) => {
        const stream = stockStreamId(h.productId, h.stockSize);
        const key = { productId: h.productId, size: h.stockSize, reservationId: h.holdId, now };
        return action === 'commit'
          ? this.writer.execute(stream, { type: 'CommitStock', data: key })
          : this.writer.execute(stream, {
              type: 'ReleaseStock',
              data: { ...key, reason, ...(action === 'return' ? { returnSale: true } : {}) },
            });
      }),
    );
    return outcomes.filter((events) => events.length > 0).length;
  }
}
