import { runService } from '@shop/shared/runtime/run-service';
import { createAccountsService } from './index.ts';

// Its own process: the other services check their tokens' users over /internal/accounts/* with a service token.
await runService('accounts', 'accounts', (ctx) => createAccountsService(ctx, { internalRoutes: true }));
