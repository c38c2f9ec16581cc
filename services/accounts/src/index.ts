import { Router } from 'express';
import { KnownDevices } from '@shop/shared/auth/known-devices';
import { mountRoutes, type RouteSpec } from '@shop/shared/http/route-table';
import type { ServiceContext, ServiceModule } from '@shop/shared/runtime/service';
import { Accounts } from './user/accounts.ts';
import { ACCOUNTS_API_ROUTES } from './user/accounts-api.ts';
import { accountsUserDirectory } from './user/user-directory.ts';
import { USER_DIRECTORY_ROUTES } from './user/user-directory-api.ts';
import { USERS_PROJECTION, usersProjection } from './read-models/users/users-projection.ts';
import { TESTIMONIALS_PROJECTION, testimonialsProjection } from './read-models/testimonials/testimonials-projection.ts';
import { seedDemoTestimonials } from './seed/seed-testimonials.ts';
import { Testimonials } from './testimonial/testimonials.ts';
import { TESTIMONIALS_ROUTES } from './testimonial/testimonials-api.ts';
import { userStreamId } from './user/events.ts';
import { OutgoingMail, sweepOutgoingMail } from '@shop/shared/mail/outgoing-mail';
import { MAIL_SANDBOX_ROUTES } from './mail/mail-sandbox-api.ts';

/** Every route the accounts service mounts. */
export const ACCOUNTS_ROUTES: RouteSpec[] = [
  ...ACCOUNTS_API_ROUTES,
  ...TESTIMONIALS_ROUTES,
  ...USER_DIRECTORY_ROUTES,
  ...MAIL_SANDBOX_ROUTES,
];
export { requireReviewer } from './testimonial/testimonials-api.ts';
export type { EmailEvent, UserEvent } from './user/events.ts';

export { usersProjection } from './read-models/users/users-projection.ts';
export { accountsHistory } from './history/accounts-history.ts';
export { accountsUserDirectory } from './user/user-directory.ts';
import type { ProjectionRegistration } from '@shop/shared/bus/projection-read-model';
import { usersReadModel } from './read-models/users/users-projection.ts';
import { testimonialsReadModel } from './read-models/testimonials/testimonials-projection.ts';

/** The accounts service's projections, for replay (every one of its consumers). */
export const readModels: readonly ProjectionRegistration[] = [usersReadModel, testimonialsReadModel];
export const processManagers: readonly string[] = [];

/**
 * Accounts service: registration, login, profile, admin users list, testimonials; ensures the configured admin.
 * With `seed`, the start that creates the admin (a fresh shop's first) also seeds a few approved testimonials.
 */
export function createAccountsService(
  ctx: ServiceContext,
  opts: {
    seed?: boolean;
    /**
     * Serve /internal/accounts/* (service tokens only): the user check, for the other services running as
     * their own processes. Off in the all-in-one process, where they check users in-process.
     */
    internalRoutes?: boolean;
  } = {},
): ServiceModule & { accounts: Accounts } {
  // Password-reset mails are recorded with the request and sent after its commit (and again until sent).
  const outgoing = new OutgoingMail({
    pool: ctx.pool,
    schema: 'accounts',
    mailer: ctx.mailer,
    clock: ctx.clock,
    logger: ctx.logger,
  });
  const mailSweep = sweepOutgoingMail(ctx.jobs, outgoing);
  const accounts = new Accounts(ctx.eventStore('accounts'), ctx.clock, { outgoing, publicUrl: ctx.config.publicUrl });
  const testimonials = new Testimonials(ctx.eventStore('accounts'), ctx.clock);
  const { pool, tokens, waitForProjection } = ctx;
  const devices = new KnownDevices(ctx.config.JWT_SECRET);
  // Tokens are checked in this process against this service's own users.
  const users = accountsUserDirectory(pool);
  ctx.users.bind(users);
  const router = mountRoutes(Router(), ACCOUNTS_API_ROUTES, {
    pool,
    tokens,
    waitForProjection,
    accounts,
    devices,
    directory: ctx.users,
  });
  mountRoutes(router, MAIL_SANDBOX_ROUTES, { pool, mailer: ctx.mailer });
  mountRoutes(router, TESTIMONIALS_ROUTES, { pool, waitForProjection, testimonials });
  if (opts.internalRoutes) mountRoutes(router, USER_DIRECTORY_ROUTES, { users });
  return {
    name: 'accounts',
    accounts,
    router,
    consumers: [usersProjection, testimonialsProjection],
    async start() {
      await mailSweep.start(); // and what a process that stopped left unsent
      const admin = await accounts.ensureAdmin(ctx.config.ADMIN_EMAIL, ctx.config.ADMIN_PASSWORD);
      if (admin.created) ctx.logger.info({ email: ctx.config.ADMIN_EMAIL }, 'admin account created');
      // Ready only once the admin can log in (the login reads the users projection).
      const readable = await ctx.waitForProjection({
        schema: 'accounts',
        consumer: USERS_PROJECTION,
        streamId: userStreamId(admin.userId),
        version: admin.version,
        timeoutMs: 30_000,
      });
      if (!readable) throw new Error('users projection did not catch up with the admin account in 30 s');
      if (!opts.seed || !admin.created) return;
      const seeded = await seedDemoTestimonials(ctx.eventStore('accounts'), accounts, testimonials);
      for (const w of seeded) {
        const ok = await ctx.waitForProjection({
          schema: 'accounts',
          consumer: TESTIMONIALS_PROJECTION,
          ...w,
          timeoutMs: 30_000,
        });
        if (!ok) throw new Error(`testimonials projection did not reach ${w.streamId}@${w.version} in 30 s`);
      }
      if (seeded.length > 0) ctx.logger.info({ testimonials: seeded.length }, 'demo testimonials seeded');
    },
  };
}
