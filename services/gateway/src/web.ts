import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Express } from 'express';

export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

/** Serves the built React app: hashed assets cached for a year, every other GET falls back to index.html. */
export function serveWebApp(app: Express, dist = WEB_DIST): boolean {
  const index = path.join(dist, 'index.html');
  if (!fs.existsSync(index)) return false;
  app.use(
    '/assets',
    express.static(path.join(dist, 'assets'), { immutable: true, maxAge: '365d', fallthrough: false }),
  );
  app.use(express.static(dist, { index: false, maxAge: '1h' }));
  app.get(/^(?!\/api\/|\/internal\/|\/uploads\/|\/metrics$).*/, (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  });
  return true;
}
