import type { ServiceContext, ServiceModule } from '@shop/shared/runtime/service';
import { Accounts } from './accounts.ts';
import { accountsRouter } from './api.ts';
import { usersProjection } from './read-models/users/users-projection.ts';

export { usersProjection } from './read-models/users/users-projection.ts';

/** Accounts service: registration, login, profile, admin users list; ensures the configured admin. */
export function createAccountsService(ctx: ServiceContext): ServiceModule & { accounts: Accounts } {
  const accounts = new Accounts(ctx.eventStore('accounts'), ctx.clock);
  return {
    name: 'accounts',
    accounts,
    router: accountsRouter(ctx, accounts),
    consumers: [usersProjection],
    async start() {
      const admin = await accounts.ensureAdmin(ctx.config.ADMIN_EMAIL, ctx.config.ADMIN_PASSWORD);
      if (admin.created) ctx.logger.info({ email: ctx.config.ADMIN_EMAIL }, 'admin account created');
    },
  };
}
