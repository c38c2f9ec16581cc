import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// The repository's own eslint.config.js, run through ESLint's Node API on code placed at a path inside a
// service: the rule that lets a service import another service only through its client entry, and the one that
// keeps its SQL to its own schema.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let eslint: ESLint;

beforeAll(async () => {
  eslint = new ESLint({ cwd: root, overrideConfigFile: path.join(root, 'eslint.config.js') });
  // The first lint loads the config and the TypeScript parser (seconds on a busy machine): done here, so
  // no single case pays for it against its own timeout.
  await eslint.lintText('export {};\n', { filePath: path.join(root, 'services/shared/src/warm-up.ts') });
}, 60_000);

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

/** Lints `code` as if it were `file`; answers the messages of the schema rule (and no others). */
async function foreignSchemas(code: string, file: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  expect(result!.messages.filter((m) => m.ruleId !== 'shop/no-foreign-schema')).toEqual([]);
  return result!.messages.filter((m) => m.ruleId === 'shop/no-foreign-schema');
}

const query = (sql: string) =>
  `declare const pool: { query(sql: string, params: unknown[]): unknown };\n` +
  `export const run = (id: string) => pool.query(${sql}, [id]);\n`;

describe("lint: a service's queries name only its own schema", () => {
  it.each([
    ["'SELECT is_admin FROM accounts.users WHERE id = $1'", 'services/order/src/orders.ts'],
    ['`SELECT * FROM catalog.products WHERE id = $1`', 'services/order/src/read-models/orders/orders-queries.ts'],
    ["'SELECT is_admin FROM accounts.users WHERE id = $1'", 'services/shared/src/auth/tokens.ts'],
    ["'SELECT data FROM orders.events WHERE stream_id = $1'", 'services/checkout/src/payment/refunds.ts'],
    ['`UPDATE "checkout".payment_orders SET status = $1`', 'services/catalog/src/catalog.ts'],
    ["schemaIdentifier('checkout') + '.events WHERE id = $1'", 'services/order/src/orders.ts'],
  ])('refuses %s in %s', async (sql, file) => {
    const code = `export declare function schemaIdentifier(s: string): string;\n${query(sql)}`;
    const errors = await foreignSchemas(code, file);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.severity).toBe(2);
  });

  it.each([
    ["'SELECT is_admin FROM accounts.users WHERE id = $1'", 'services/accounts/src/accounts.ts'],
    ['`SELECT * FROM orders.orders WHERE order_number = $1`', 'services/order/src/orders.ts'],
    ["'SELECT * FROM catalog.products WHERE id = $1'", 'services/catalog/src/catalog.ts'],
    // words that are not a schema-qualified name; test code and the composition root
    ["'Checkout. Orders. Catalog.'", 'services/shared/src/auth/tokens.ts'],
    // a path or a file name, not a query
    ["'/v1/checkout.js'", 'services/razorpay-sandbox/src/razorpay-sandbox.ts'],
    ["'SELECT * FROM razorpay_sandbox.orders WHERE id = $1'", 'services/razorpay-sandbox/src/sandbox-ledger.ts'],
    ["'SELECT * FROM accounts.users WHERE id = $1'", 'services/order/src/api.int.spec.ts'],
    ["'SELECT * FROM accounts.users WHERE id = $1'", 'services/gateway/src/shop.ts'],
  ])('allows %s in %s', async (sql, file) => {
    expect(await foreignSchemas(query(sql), file)).toEqual([]);
  });
});
