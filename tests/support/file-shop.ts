import { afterAll, beforeAll } from 'vitest';
import { startTestShop, type TestShop } from './test-shop.ts';

/** The shop testShopForTests started, and the admin's token: there from its beforeAll on. */
export interface ShopUnderTest {
  readonly shop: TestShop;
  readonly admin: string;
}

/**
 * One test shop for the tests of a file (or of the describe block it is called in): started (startTestShop
 * with `opts`) and the admin logged in, in a beforeAll, so set-up hooks declared after this call can use
 * it; stopped in an afterAll that runs after theirs. Read `shop` and `admin` in hooks and tests.
 */
export function testShopForTests(opts: Parameters<typeof startTestShop>[0] = {}): ShopUnderTest {
  let started: { shop: TestShop; admin: string } | undefined;
  beforeAll(async () => {
    const shop = await startTestShop(opts);
    try {
      started = { shop, admin: await shop.login() };
    } catch (err) {
      await shop.stop();
      throw err;
    }
  });
  afterAll(() => started?.shop.stop());
  const get = () => {
    if (!started) throw new Error('The test shop starts in beforeAll: read it in hooks and tests');
    return started;
  };
  return {
    get shop() {
      return get().shop;
    },
    get admin() {
      return get().admin;
    },
  };
}
