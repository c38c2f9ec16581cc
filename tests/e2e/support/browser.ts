import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { httpClient } from '@shop/test-support/http';
import { ROOT } from '../../../scripts/distributed-processes.ts';
import { freePort } from '../../../services/shared/src/db/free-port.ts';
import { spawnShop, stop, waitHealthy, type ShopProcess } from './shop-process.ts';

/** Debian's Chromium (package `chromium`); browser tests never download a browser. */
export const CHROMIUM = '/usr/bin/chromium';

/** Where browser tests write their screenshots (git ignores .tmp/). */
export const SCREENSHOTS_DIR = path.join(ROOT, '.tmp', 'screenshots');

/** The two widths every screen must work at (seed: usable on a phone and a desktop). */
export const VIEWPORTS = { desktop: { width: 1440, height: 900 }, phone: { width: 375, height: 812 } } as const;

/** Headless Debian Chromium driven by playwright-core, with the flags this machine's closed network needs. */
export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM))
    throw new Error(`Browser tests need Chromium at ${CHROMIUM} (apt-get install chromium)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

/** A fresh browser context (own storage: a new visitor) at a viewport, with the shop as base URL. */
export async function newVisitor(
  browser: Browser,
  baseURL: string,
  viewport: { width: number; height: number } = VIEWPORTS.desktop,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, viewport });
  const page = await context.newPage();
  return { context, page };
}

/** Writes `<name>-<width>.png` under SCREENSHOTS_DIR (full page). */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const file = path.join(SCREENSHOTS_DIR, `${name}-${page.viewportSize()?.width ?? 0}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** Fails if the page scrolls sideways (the seed's screens must fit 375 px and 1440 px). */
export async function horizontalOverflow(page: Page): Promise<number> {
  // A string: this file is type-checked for Node, where `document` does not exist.
  return page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
}

/**
 * The embedded default as a newcomer runs it (one process, its own DATA_DIR, demo catalog seeded), on a
 * free port; the web app must be built first (`npm run test:e2e` builds it).
 */
export async function startEmbeddedShop(env: Record<string, string> = {}): Promise<{
  shop: ShopProcess;
  base: string;
  stop(): Promise<void>;
}> {
  if (!fs.existsSync(path.join(ROOT, 'web/dist/index.html')))
    throw new Error('Build the web app first: npm run build:web');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-browser-'));
  const shop = spawnShop({ port: await freePort(), dataDir, env });
  await waitHealthy(shop);
  return {
    shop,
    base: shop.base,
    async stop() {
      await stop(shop);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type EmbeddedShop = Awaited<ReturnType<typeof startEmbeddedShop>>;

/**
 * A browser spec file's set-up: before its tests, starts the embedded shop and Chromium together and hands
 * both to `ready` (which may set up more); after them, closes the browser and stops the shop.
 */
export function useShopAndBrowser(ready: (shop: EmbeddedShop, browser: Browser) => void | Promise<void>): void {
  let started: { shop?: EmbeddedShop; browser?: Browser } = {};
  beforeAll(async () => {
    const [shop, browser] = await Promise.all([startEmbeddedShop(), launchBrowser()]);
    started = { shop, browser };
    await ready(shop, browser);
  });
  afterAll(async () => {
    await started.browser?.close();
    await started.shop?.stop();
  });
}

/** The shop's API for a browser test's set-up steps: the body of a 2xx answer, else an error saying what came. */
export function shopApi(base: string) {
  const api = httpClient(base);
  return async function callApi<T = unknown>(
    path: string,
    init: { method?: string; body?: unknown; token?: string | null } = {},
  ): Promise<T> {
    const method = init.method ?? (init.body === undefined ? 'GET' : 'POST');
    const r = await api<T>(method, `/api${path}`, { body: init.body, token: init.token ?? undefined });
    if (r.status < 200 || r.status > 299) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
}
