import { runService } from '@shop/shared/runtime/run-service';
import { createOrderService } from './index.ts';

await runService('order', 'orders', (ctx) => createOrderService(ctx));
