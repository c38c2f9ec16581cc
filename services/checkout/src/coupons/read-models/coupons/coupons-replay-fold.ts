import type { ReplayFold } from '@shop/shared/replay/fold';
import type { CouponEvent } from '../../coupon/events.ts';
import { TERM_COLUMNS, termValues } from './coupons-projection.ts';

/** The replay's in-memory fold of checkout.coupons (coupons-projection.ts). */

const COLUMNS = ['id', 'created_at', 'updated_at', ...TERM_COLUMNS, 'committed_uses', 'reserved_uses'];
const COMMITTED = COLUMNS.indexOf('committed_uses');
const RESERVED = COLUMNS.indexOf('reserved_uses');

export function couponsReplayFold(): ReplayFold {
  const coupons = new Map<string, unknown[]>();
  const add = (id: string, column: number, n: number) => {
    const row = coupons.get(id);
    if (row) row[column] = (row[column] as number) + n;
  };
  return {
    apply(event) {
      const e = { type: event.type, data: event.data } as CouponEvent;
      switch (e.type) {
        case 'CouponCreated': {
          const { couponId, createdAt, ...terms } = e.data;
          if (!coupons.has(couponId))
            coupons.set(couponId, [couponId, createdAt, createdAt, ...termValues(terms), 0, 0]);
          return;
        }
        case 'CouponUpdated': {
          const { couponId, updatedAt, ...terms } = e.data;
          const row = coupons.get(couponId);
          if (row) {
            row[2] = updatedAt;
            termValues(terms).forEach((v, i) => (row[3 + i] = v));
          }
          return;
        }
        case 'CouponDeleted':
          coupons.delete(e.data.couponId);
          return;
        case 'CouponUseReserved':
          add(e.data.couponId, RESERVED, 1);
          return;
        case 'CouponUseReleased':
          add(e.data.couponId, RESERVED, -1);
          return;
        case 'CouponUseCommitted':
          add(e.data.couponId, RESERVED, -1);
          add(e.data.couponId, COMMITTED, 1);
          return;
      }
    },
    tables: () => [{ table: 'checkout.coupons', columns: COLUMNS, rows: coupons.values() }],
  };
}
