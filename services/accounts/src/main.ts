import { runService } from '@shop/shared/runtime/run-service';
import { createAccountsService } from './index.ts';

await runService('accounts', 'accounts', (ctx) => createAccountsService(ctx));
