import { describe, expect, it } from 'vitest';
import { expectFits, useShopAndBrowser, VIEWPORTS } from '../support/browser.ts';

// The browser harness itself: Debian's Chromium through playwright-core against the embedded default.
const shop = useShopAndBrowser();

describe('browser harness', () => {
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    it(`renders the storefront's product list at ${viewport.width} px without sideways scrolling (${name})`, async () => {
      const { context, page } = await shop.visit(viewport);
      await page.goto('/products');
      await expect
        .poll(() => page.getByRole('button', { name: 'Add to Cart' }).count(), { timeout: 15_000 })
        .toBeGreaterThan(0);
      await expectFits(page, 'harness-products');
      await context.close();
    });
  }
});
