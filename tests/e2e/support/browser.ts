import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { DEFAULT_ADMIN } from '@shop/test-support/fixtures';
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

/** A screen size: one of VIEWPORTS, or another width and height. */
export type Viewport = { width: number; height: number };

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
  viewport: Viewport = VIEWPORTS.desktop,
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

/** A set-up step's call to the shop's API (see shopApi): the method is GET, or POST when there is a body. */
export type ApiInit = { method?: string; body?: unknown; token?: string | null };

/** What a browser spec file works with: the embedded shop and Chromium, once the file's set-up has run. */
export interface ShopInBrowser {
  /** The shop's base URL. */
  readonly base: string;
  readonly browser: Browser;
  /** A new visitor (a fresh context: own storage) on the shop at `viewport` (desktop by default). */
  visit(viewport?: Viewport): Promise<{ context: BrowserContext; page: Page }>;
  /** The shop's API for set-up steps: the body of a 2xx answer, else an error saying what came. */
  api<T = unknown>(path: string, init?: ApiInit): Promise<T>;
  /** The token of the admin the shop seeds (DEFAULT_ADMIN), for set-up steps. */
  adminToken(): Promise<string>;
}

/**
 * A browser spec file's set-up: before its tests, starts the embedded shop and Chromium together and hands
 * them to `ready` (which may set up more); after them, closes the browser and stops the shop. Answers what the
 * tests use (read only inside hooks and tests: before the set-up it throws).
 */
export function useShopAndBrowser(ready?: (shop: ShopInBrowser) => void | Promise<void>): ShopInBrowser {
  let started: { shop?: EmbeddedShop; browser?: Browser } = {};
  const get = () => {
    if (!started.shop || !started.browser) throw new Error('The shop and browser start before the tests (beforeAll)');
    return { shop: started.shop, browser: started.browser };
  };
  const suite: ShopInBrowser = {
    get base() {
      return get().shop.base;
    },
    get browser() {
      return get().browser;
    },
    visit: (viewport) => newVisitor(get().browser, get().shop.base, viewport),
    api: (path, init) => shopApi(get().shop.base)(path, init),
    adminToken: async () => (await suite.api<{ token: string }>('/auth/login', { body: DEFAULT_ADMIN })).token,
  };
  beforeAll(async () => {
    const [shop, browser] = await Promise.all([startEmbeddedShop(), launchBrowser()]);
    started = { shop, browser };
    await ready?.(suite);
  });
  afterAll(async () => {
    await started.browser?.close();
    await started.shop?.stop();
  });
  return suite;
}

/** The shop's API for a browser test's set-up steps: the body of a 2xx answer, else an error saying what came. */
export function shopApi(base: string) {
  const api = httpClient(base);
  return async function callApi<T = unknown>(path: string, init: ApiInit = {}): Promise<T> {
    const method = init.method ?? (init.body === undefined ? 'GET' : 'POST');
    const r = await api<T>(method, `/api${path}`, { body: init.body, token: init.token ?? undefined });
    if (r.status < 200 || r.status > 299) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
}

/** An amount in rupees as the web app shows it: ₹1,548.00. */
export const rupees = (amount: number) =>
  `₹${amount.toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** Fills each field of `scope` (the page, a form, a dialog) found by its label, in the order given. */
export async function fillLabelled(scope: Page | Locator, fields: Record<string, string>): Promise<void> {
  for (const [label, value] of Object.entries(fields)) await scope.getByLabel(label).fill(value);
}

/** Signs in through the login form on screen (the seed's labels): e-mail, password, then Login. */
export async function submitLogin(page: Page, credentials: { email: string; password: string }): Promise<void> {
  await fillLabelled(page, { Email: credentials.email, Password: credentials.password });
  await page.getByRole('button', { name: 'Login', exact: true }).click();
}

/** Closes every open notification, so screenshots show the page itself. */
export async function closeNotifications(page: Page): Promise<void> {
  const close = page.getByRole('button', { name: 'Close notification' });
  while ((await close.count()) > 0) await close.first().click();
}

/**
 * The screen on show fits its width (no sideways scrolling); then, its notifications closed and scrolled to the
 * top, its screenshot `<name>-<width>.png`.
 */
export async function expectFits(page: Page, name: string): Promise<void> {
  expect(await horizontalOverflow(page), `${page.url()} scrolls sideways`).toBe(0);
  await closeNotifications(page);
  await page.evaluate('window.scrollTo(0, 0)');
  await screenshot(page, name);
}

/**
 * Checks a screen at both widths (desktop, then phone): once `ready` answers, expectFits. Puts the page back at
 * the width it had.
 */
export async function atBothWidths(page: Page, name: string, ready: () => Promise<unknown>): Promise<void> {
  const original = page.viewportSize() ?? VIEWPORTS.desktop;
  for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
    await page.setViewportSize(viewport);
    await ready();
    await expectFits(page, name);
  }
  await page.setViewportSize(original);
}
