import { Router } from 'express';
import type { EventConsumer } from '@shop/shared/bus/types';
import { mountRoutes } from '@shop/shared/http/route-table';
import type { ServiceContext } from '@shop/shared/runtime/service';
import { COUPON_ROUTES } from './api.ts';
import { Coupons } from './coupons.ts';
import { couponsProjection } from './read-models/coupons/coupons-projection.ts';

export { Coupons } from './coupons.ts';
export { checkEligibility, discountFor, type Eligibility } from './coupon/eligibility.ts';
export type { CouponTerms, Discount } from './coupon/events.ts';
export { COUPONS_PROJECTION, couponsProjection } from './read-models/coupons/coupons-projection.ts';

/** Coupons slice of checkout: admin management, validation for shoppers, and uses held for checkouts. */
export function createCoupons(ctx: ServiceContext): {
  router: Router;
  consumers: EventConsumer[];
  coupons: Coupons;
} {
  const coupons = new Coupons(ctx.eventStore('checkout'), ctx.clock);
  return {
    router: mountRoutes(Router(), COUPON_ROUTES, {
      pool: ctx.pool,
      clock: ctx.clock,
      waitForProjection: ctx.waitForProjection,
      coupons,
    }),
    consumers: [couponsProjection],
    coupons,
  };
}
