// @ts-check
/**
 * The production build: compiles every service's entry (services/<name>/src/main.ts) and every script
 * (scripts/*.ts) to one JavaScript file each, dist/<service>.js and dist/<script>.js (esbuild; the @shop/*
 * workspaces are bundled in, npm packages stay imports resolved from node_modules), then builds the web app
 * (vite) into web/dist.
 *
 *   node scripts/build.mjs            build both, whatever their state (`npm run build`)
 *   node scripts/build.mjs --stale    rebuild only the half whose sources changed since it was built (`npm start`)
 *   node scripts/build.mjs --server   only the services and scripts (`--web`: only the web app)
 *
 * Plain JavaScript so node runs it without a TypeScript loader. Every bundle sits directly in dist/, one level
 * under the repository, and each module's `import.meta.url` is rewritten to its source file's place relative
 * to that, so the paths the code finds from it (web/dist, migrations/, a package.json) are the repository's,
 * in a clone as in the image. The one exception is the started-script
 * check (`runCli(import.meta.url, ...)`, `isMain(import.meta.url)`), which asks about the file node runs.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'dist');
const SERVER_STAMP = path.join(OUT, '.build.json');
const WEB_DIST = path.join(ROOT, 'web', 'dist');
const WEB_STAMP = path.join(WEB_DIST, '.build.json');
/** What the web build reads besides web/: the services' shared contracts (web/vite.config.ts aliases them). */
const WEB_INPUTS = [
  'web/src',
  'web/public',
  'web/index.html',
  'web/vite.config.ts',
  'web/package.json',
  'web/tsconfig.json',
  'services/shared/src/contracts',
];
/** Files whose change makes both halves stale (a dependency upgraded, this script changed). */
const COMMON_INPUTS = ['package-lock.json', 'scripts/build.mjs'];

/** @returns {Record<string, string>} each bundle's name in dist/ (without .js) and its entry, relative to the repository */
function serverEntries() {
  /** @type {Record<string, string>} */
  const entries = {};
  for (const name of fs.readdirSync(path.join(ROOT, 'services'))) {
    const entry = `services/${name}/src/main.ts`;
    if (fs.existsSync(path.join(ROOT, entry))) entries[name] = entry;
  }
  for (const file of fs.readdirSync(path.join(ROOT, 'scripts'))) {
    if (!file.endsWith('.ts') || file.endsWith('.spec.ts') || file.endsWith('.d.ts')) continue;
    const name = file.replace(/\.ts$/, '');
    if (entries[name]) throw new Error(`scripts/${file} and services/${name} would both build dist/${name}.js`);
    entries[name] = `scripts/${file}`;
  }
  return entries;
}

/** The newest modification time (ms) of a file, or of any file under a directory; 0 when absent. */
function newestMtime(/** @type {string} */ rel) {
  const full = path.join(ROOT, rel);
  let stat;
  try {
    stat = fs.statSync(full);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(full)) newest = Math.max(newest, newestMtime(path.join(rel, entry)));
  return newest;
}

/** @returns {{ startedAt: number, inputs: string[] } | null} */
function readStamp(/** @type {string} */ file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Why a half must be rebuilt, or null when everything it was built from is older than its build. */
function staleReason(/** @type {string} */ stampFile, /** @type {string[]} */ expectedOutputs) {
  const stamp = readStamp(stampFile);
  if (!stamp) return 'never built';
  for (const out of expectedOutputs) if (!fs.existsSync(path.join(ROOT, out))) return `${out} is missing`;
  for (const input of [...stamp.inputs, ...COMMON_INPUTS]) {
    if (newestMtime(input) > stamp.startedAt) return `${input} changed`;
  }
  return null;
}

async function buildServer() {
  const esbuild = await import('esbuild');
  const startedAt = Date.now();
  const entries = serverEntries();
  /** @type {import('esbuild').Plugin} */
  const layout = {
    name: 'repository-layout',
    setup(build) {
      // npm packages stay imports (resolved from node_modules at run time); the workspaces are compiled in.
      build.onResolve({ filter: /^[^./]/ }, (args) =>
        args.path.startsWith('@shop/') ? undefined : { path: args.path, external: true },
      );
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
        let source = await fs.promises.readFile(args.path, 'utf8');
        if (source.includes('import.meta.url')) {
          const fromBundle = JSON.stringify(path.relative(OUT, args.path).split(path.sep).join('/'));
          source = source
            .replace(/\b(runCli|isMain)\(\s*import\.meta\.url/g, '$1(__STARTED_SCRIPT_URL__')
            .replace(/\bimport\.meta\.url\b/g, `new URL(${fromBundle}, import.meta.url).href`)
            .replace(/__STARTED_SCRIPT_URL__/g, 'import.meta.url');
        }
        return { contents: source, loader: 'ts' };
      });
    },
  };
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: entries,
    outdir: OUT,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
    plugins: [layout],
    // Bundled CommonJS-style code may call require(); give ES modules one.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  });
  const inputs = Object.keys(result.metafile.inputs).filter((file) => !file.includes('node_modules'));
  fs.writeFileSync(SERVER_STAMP, JSON.stringify({ startedAt, entries, inputs }, null, 1));
  return Object.keys(entries).length;
}

function buildWeb() {
  const startedAt = Date.now();
  const run = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: ROOT, stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`web build failed (exit ${run.status ?? run.signal})`);
  fs.writeFileSync(WEB_STAMP, JSON.stringify({ startedAt, inputs: WEB_INPUTS }, null, 1));
}

async function main() {
  const args = new Set(process.argv.slice(2));
  const onlyStale = args.has('--stale');
  const server = !args.has('--web') || args.has('--server');
  const web = !args.has('--server') || args.has('--web');
  const t0 = performance.now();
  if (server) {
    const reason = onlyStale
      ? staleReason(
          SERVER_STAMP,
          Object.keys(serverEntries()).map((name) => `dist/${name}.js`),
        )
      : 'asked';
    if (reason) {
      const count = await buildServer();
      console.log(
        `build: ${count} service and script bundles in dist/ (${reason}), ${Math.round(performance.now() - t0)} ms`,
      );
    }
  }
  if (web) {
    const t1 = performance.now();
    const reason = onlyStale ? staleReason(WEB_STAMP, ['web/dist/index.html']) : 'asked';
    if (reason) {
      buildWeb();
      console.log(`build: web app in web/dist (${reason}), ${Math.round(performance.now() - t1)} ms`);
    }
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
