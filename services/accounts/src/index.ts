import type { ServiceContext, ServiceModule } from '@shop/shared/runtime/service';
import { Accounts } from './accounts.ts';
import { accountsRouter } from './api.ts';
import { USERS_PROJECTION, usersProjection } from './read-models/users/users-projection.ts';
import { testimonialsProjection } from './read-models/testimonials/testimonials-projection.ts';
import { Testimonials } from './testimonials.ts';
import { testimonialsRouter } from './testimonials-api.ts';
import { userStreamId } from './user/events.ts';

export { ACCOUNTS_ROUTES } from './routes.ts';
export { requireReviewer } from './testimonials-api.ts';

export { usersProjection } from './read-models/users/users-projection.ts';

/** Accounts service: registration, login, profile, admin users list, testimonials; ensures the configured admin. */
export function createAccountsService(ctx: ServiceContext): ServiceModule & { accounts: Accounts } {
  const accounts = new Accounts(ctx.eventStore('accounts'), ctx.clock);
  const router = accountsRouter(ctx, accounts);
  router.use(testimonialsRouter(ctx, new Testimonials(ctx.eventStore('accounts'), ctx.clock)));
  return {
    name: 'accounts',
    accounts,
    router,
    consumers: [usersProjection, testimonialsProjection],
    async start() {
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
    },
  };
}
