import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// The repository's own eslint.config.js, run through ESLint's Node API on code placed at a path inside a
// service: the rule that lets a service import another service only through its client entry.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root, overrideConfigFile: path.join(root, 'eslint.config.js') });
});

/** Lints `import { thing } from '<source>'` as if it were `file`; answers the messages of the rule. */
async function restrictedImports(source: string, file: string) {
  const code = `import { thing } from '${source}';\nexport const used = thing;\n`;
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  expect(result!.messages.filter((m) => m.ruleId !== 'no-restricted-imports')).toEqual([]);
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports');
}

describe('lint: a service imports another service only through its public client entry', () => {
  it.each([
    ['@shop/catalog', 'services/checkout/src/main.ts'],
    ['@shop/order', 'services/checkout/src/main.ts'],
    ['@shop/order/placement/wait-for-order', 'services/checkout/src/main.ts'],
    ['@shop/order/client/extra', 'services/checkout/src/main.ts'],
    ['../../../order/src/placement/wait-for-order.ts', 'services/checkout/src/payment/api.ts'],
    ['../../catalog/src/inventory/inventory-http-client.ts', 'services/checkout/src/main.ts'],
    ['@shop/order/client', 'services/shared/src/runtime/service.ts'],
    ['@shop/razorpay-sandbox', 'services/shared/src/runtime/service.ts'],
    ['@shop/checkout', 'services/razorpay-sandbox/src/razorpay-sandbox.ts'],
    ['../../checkout/src/payment/decider.ts', 'services/razorpay-sandbox/src/razorpay-sandbox.ts'],
  ])('refuses %s in %s', async (source, file) => {
    const errors = await restrictedImports(source, file);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.severity).toBe(2);
  });

  it.each([
    ['@shop/catalog/client', 'services/checkout/src/main.ts'],
    ['@shop/order/client', 'services/checkout/src/main.ts'],
    ['@shop/shared/contracts/order-placement', 'services/checkout/src/index.ts'],
    ['@shop/razorpay-sandbox/signatures', 'services/checkout/src/payment/price-at-verify.ts'],
    ['../order/events.ts', 'services/order/src/placement/wait-for-order.ts'],
    ['../../order/events.ts', 'services/order/src/read-models/orders/orders-projection.ts'],
    // the gateway is the composition root; tests and test hosts may wire any service
    ['@shop/order', 'services/gateway/src/shop.ts'],
    ['@shop/catalog', 'services/checkout/src/payment/expiry-sweep.int.spec.ts'],
    ['@shop/accounts', 'services/order/src/testing/order-test-host.ts'],
  ])('allows %s in %s', async (source, file) => {
    expect(await restrictedImports(source, file)).toEqual([]);
  });
});
