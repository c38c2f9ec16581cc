import { spawn } from 'node:child_process';
import { freePort } from '../../services/shared/src/runtime/free-port.ts';

/** Starts a throw-away redis-server (Debian package) on a free port; fails loudly if there is none. */
export async function startTestRedis(): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('redis-server did not become ready in 10 s')), 10_000);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`Cannot start redis-server (apt-get install redis-server): ${e.message}`));
    });
    child.stdout.on('data', (d: Buffer) => {
      if (d.toString().includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      child.kill('SIGTERM');
    },
  };
}
