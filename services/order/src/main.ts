import { runService } from '@shop/shared/runtime/run-service';
import { createOrderService } from './index.ts';

// Its own process: checkout asks which order a payment became over /internal/orders/* with a service token.
await runService('order', 'orders', (ctx) => createOrderService(ctx, { internalRoutes: true }));
