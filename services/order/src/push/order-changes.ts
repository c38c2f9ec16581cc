import { z } from 'zod';

/** Pub/sub channel on which the orders projection announces committed changes to every process. */
export const ORDER_CHANGES_CHANNEL = 'orders.changed';

/** One order the projection changed; userId routes it to its shopper (also after the row is gone). */
export interface OrderChange {
  orderNumber: string;
  userId: string | null;
  deleted: boolean;
}

const Message = z.object({
  changes: z.array(z.object({ orderNumber: z.string(), userId: z.string().nullable(), deleted: z.boolean() })),
});

/** One message per committed projection batch; an order changed twice in it appears once. */
export function encodeOrderChanges(changes: readonly OrderChange[]): string {
  const byOrder = new Map<string, OrderChange>();
  for (const c of changes) {
    const before = byOrder.get(c.orderNumber);
    byOrder.set(c.orderNumber, {
      orderNumber: c.orderNumber,
      userId: c.userId ?? before?.userId ?? null,
      deleted: c.deleted || (before?.deleted ?? false),
    });
  }
  return JSON.stringify({ changes: [...byOrder.values()] });
}

/** The changes in a message; null when it is not one of ours (it is then ignored). */
export function decodeOrderChanges(message: string): OrderChange[] | null {
  try {
    const r = Message.safeParse(JSON.parse(message));
    return r.success ? r.data.changes : null;
  } catch {
    return null;
  }
}
