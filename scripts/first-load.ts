/**
 * The storefront's first-load weight: the JavaScript a browser fetches before the first page can run,
 * i.e. web/dist/index.html's entry <script type="module" src> and its <link rel="modulepreload"> chunks.
 * Each is gzipped here with node:zlib at level 9 (the most a static server or CDN would send); lazily
 * loaded route chunks (admin screens, other pages) are not counted. Builds nothing: run
 * `npm run build:web` first.
 *
 *   npm run first-load                      # table per chunk and the total; exit 1 above the budget
 *   npm run first-load -- --dist <folder>   # another build's output folder (default web/dist)
 *
 * Budget: 150 KB (150 * 1024 bytes) gzip in total.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync, constants } from 'node:zlib';
import { isMain } from './lib/run-cli.ts';

export const BUDGET_BYTES = 150 * 1024;
export const GZIP_LEVEL = constants.Z_BEST_COMPRESSION; // 9

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const distArg = process.argv.indexOf('--dist');
const DIST =
  distArg > 0 && process.argv[distArg + 1] ? path.resolve(process.argv[distArg + 1]!) : path.join(ROOT, 'web', 'dist');

/** The entry module scripts and modulepreload hrefs of a built index.html, in document order, unique. */
export function firstLoadScripts(html: string): string[] {
  const found: string[] = [];
  for (const tag of html.match(/<(script|link)\b[^>]*>/gi) ?? []) {
    const attr = (name: string) => new RegExp(`\\b${name}\\s*=\\s*["']([^"']*)["']`, 'i').exec(tag)?.[1];
    const isScript = /^<script/i.test(tag) && attr('type') === 'module' && attr('src');
    const isPreload = /^<link/i.test(tag) && attr('rel')?.toLowerCase() === 'modulepreload' && attr('href');
    const url = isScript ? attr('src') : isPreload ? attr('href') : undefined;
    if (url && !found.includes(url)) found.push(url);
  }
  return found;
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(2)} KB`;
}

function main(): number {
  const indexFile = path.join(DIST, 'index.html');
  if (!fs.existsSync(indexFile)) {
    console.error(`${indexFile} is missing: run npm run build:web first`);
    return 2;
  }
  const urls = firstLoadScripts(fs.readFileSync(indexFile, 'utf8'));
  if (urls.length === 0) {
    console.error(`No entry script or modulepreload chunk found in ${indexFile}`);
    return 2;
  }
  const rows = urls.map((url) => {
    if (/^[a-z]+:\/\//i.test(url)) throw new Error(`External script ${url} cannot be measured`);
    const file = path.join(DIST, url.replace(/^\//, '').split(/[?#]/)[0]!);
    const raw = fs.readFileSync(file);
    return { chunk: url, raw: raw.length, gzip: gzipSync(raw, { level: GZIP_LEVEL }).length };
  });
  const total = rows.reduce((sum, row) => ({ raw: sum.raw + row.raw, gzip: sum.gzip + row.gzip }), { raw: 0, gzip: 0 });

  const width = Math.max(5, ...rows.map((row) => row.chunk.length));
  const line = (chunk: string, raw: string, gzip: string) =>
    `${chunk.padEnd(width)}  ${raw.padStart(12)}  ${gzip.padStart(12)}`;
  console.log(`First load of ${path.relative(ROOT, indexFile) || indexFile} (gzip level ${GZIP_LEVEL}, node:zlib)`);
  console.log(line('chunk', 'raw', 'gzip'));
  console.log('-'.repeat(width + 28));
  for (const row of rows) console.log(line(row.chunk, kb(row.raw), kb(row.gzip)));
  console.log('-'.repeat(width + 28));
  console.log(line('total', kb(total.raw), kb(total.gzip)));
  const over = total.gzip > BUDGET_BYTES;
  console.log(`budget ${kb(BUDGET_BYTES)} gzip: ${over ? 'OVER' : 'within'}`);
  return over ? 1 : 0;
}

if (isMain(import.meta.url)) process.exitCode = main();
