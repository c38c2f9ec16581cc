import { madeForTests } from './made-for-tests.ts';
import { startTestShop, type TestShop } from './test-shop.ts';

/** The shop testShopForTests started, and the admin's token. */
export interface ShopUnderTest {
  shop: TestShop;
  admin: string;
}

/**
 * One test shop for the tests of a file (or of the describe block it is called in), as madeForTests
 * shares it: started (startTestShop with `opts`) with the admin logged in before them, stopped after them.
 */
export function testShopForTests(opts: Parameters<typeof startTestShop>[0] = {}): Readonly<ShopUnderTest> {
  return madeForTests(
    'test shop',
    async () => {
      const shop = await startTestShop(opts);
      try {
        return { shop, admin: await shop.login() };
      } catch (err) {
        await shop.stop();
        throw err;
      }
    },
    ({ shop }) => shop.stop(),
  );
}
