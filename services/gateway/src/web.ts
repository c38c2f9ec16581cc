import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Express, type Response } from 'express';

export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

/**
 * The web app's Content-Security-Policy: its own scripts, styles, API and push stream ('self', which also
 * covers the built-in sandbox's /razorpay-sandbox/v1/checkout.js); Razorpay's checkout script
 * (checkout.razorpay.com) with the frames and calls it makes on razorpay.com; images from anywhere (a
 * product image may be any http(s) URL); no inline scripts, no plugins, and no framing by other sites.
 */
export const WEB_APP_CSP = [
  "default-src 'self'",
  "script-src 'self' https://checkout.razorpay.com",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https: http:",
  "font-src 'self' data:",
  "connect-src 'self' https://*.razorpay.com",
  "frame-src 'self' https://*.razorpay.com",
  "form-action 'self' https://*.razorpay.com",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "object-src 'none'",
].join('; ');

/** CSP, no framing (clickjacking), no MIME sniffing: on the HTML and every file of the web app. */
export function setWebSecurityHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', WEB_APP_CSP);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
}

/** Serves the built React app: hashed assets cached for a year, every other GET falls back to index.html. */
export function serveWebApp(app: Express, dist = WEB_DIST): boolean {
  const index = path.join(dist, 'index.html');
  if (!fs.existsSync(index)) return false;
  app.use(
    '/assets',
    express.static(path.join(dist, 'assets'), {
      immutable: true,
      maxAge: '365d',
      fallthrough: false,
      setHeaders: setWebSecurityHeaders,
    }),
  );
  app.use(express.static(dist, { index: false, maxAge: '1h', setHeaders: setWebSecurityHeaders }));
  app.get(/^(?!\/api\/|\/internal\/|\/uploads\/|\/metrics$).*/, (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    setWebSecurityHeaders(res);
    res.sendFile(index);
  });
  return true;
}
