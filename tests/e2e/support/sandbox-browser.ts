import type { Server } from 'node:http';
import type express from 'express';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createRazorpaySandbox, type RazorpaySandbox } from '../../../services/razorpay-sandbox/src/index.ts';
import { listen } from '../../../services/shared/src/runtime/host.ts';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import { launchBrowser } from './browser.ts';

export interface SandboxBrowser {
  /** The Razorpay sandbox (on the file's test database); mount its router where the test serves it. */
  readonly sandbox: RazorpaySandbox;
  /** Serves `app` on a free loopback port until the file's tests are done; answers its URL. */
  serve(app: express.Express): Promise<string>;
  /** A fresh browser context (no shared storage or cache) and its page, closed after the test. */
  newPage(): Promise<Page>;
}

/**
 * The set-up of a spec file that drives the Razorpay sandbox's checkout.js in Chromium: before its tests,
 * the browser, a test database and the sandbox on it (these keys, under /razorpay-sandbox), then `ready`
 * (the test's own servers); after each test, the context it opened; after them all, the browser, the
 * sandbox, the servers and the database.
 */
export function useSandboxBrowser(
  keys: { keyId: string; keySecret: string },
  ready: (env: SandboxBrowser) => Promise<void>,
): SandboxBrowser {
  const servers: Server[] = [];
  let browser: Browser | undefined;
  let db: TestDatabase | undefined;
  let sandbox: RazorpaySandbox | undefined;
  let context: BrowserContext | undefined;
  const env: SandboxBrowser = {
    get sandbox() {
      if (!sandbox) throw new Error('the sandbox starts before the tests');
      return sandbox;
    },
    async serve(app) {
      const { server, port } = await listen(app, 0, '127.0.0.1');
      servers.push(server);
      return `http://127.0.0.1:${port}`;
    },
    async newPage() {
      if (!browser) throw new Error('the browser starts before the tests');
      context = await browser.newContext();
      return context.newPage();
    },
  };

  beforeAll(async () => {
    browser = await launchBrowser();
    db = await createTestDatabase();
    sandbox = createRazorpaySandbox({ ...keys, pool: db.pool, basePath: '/razorpay-sandbox' });
    await ready(env);
  });

  afterEach(async () => {
    await context?.close();
    context = undefined;
  });

  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
    for (const s of servers) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
    await db?.drop();
  });

  return env;
}
