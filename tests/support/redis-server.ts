import { spawn } from 'node:child_process';
import { freePort } from '@shop/shared/db/free-port';

/**
 * Starts a throw-away redis-server (Debian package) on a free port, or on `port` (to start one again where
 * a stopped one was); fails loudly if there is none. No persistence: a restarted one starts empty.
 */
export async function startTestRedis(
  opts: { port?: number } = {},
): Promise<{ url: string; port: number; stop: () => Promise<void> }> {
  const port = opts.port ?? (await freePort());
  const child = spawn(
    'redis-server',
    ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('redis-server did not become ready in 10 s')), 10_000);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`Cannot start redis-server (apt-get install redis-server): ${e.message}`));
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out = (out + d.toString()).slice(-2000);
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited before it was ready: ${out}`));
    });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    /** Resolves once the server process is gone (its port free again). */
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
