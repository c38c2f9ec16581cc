import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');

/** The service processes of the distributed mode. */
export const SERVICES = [
  { name: 'catalog', entry: 'services/catalog/src/main.ts' },
  { name: 'accounts', entry: 'services/accounts/src/main.ts' },
  { name: 'checkout', entry: 'services/checkout/src/main.ts' },
  { name: 'order', entry: 'services/order/src/main.ts' },
] as const;

export interface Proc {
  name: string;
  child: ChildProcess;
  output: string[];
}

/** Starts one process with tsx, keeping its last output lines for error reports. */
export function startProcess(
  name: string,
  entry: string,
  env: Record<string, string | undefined>,
  echo = false,
  nodeArgs: string[] = [],
): Proc {
  const child = spawn(TSX, [...nodeArgs, path.join(ROOT, entry)], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const keep = (d: Buffer) => {
    for (const line of d.toString().split('\n').filter(Boolean)) {
      output.push(line);
      if (output.length > 200) output.shift();
      if (echo) console.log(`[${name}] ${line}`);
    }
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { name, child, output };
}

/** Polls a URL until it answers 200 or the deadline passes (then throws with the process output). */
export async function waitForHealthy(url: string, proc: Proc, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null)
      throw new Error(`${proc.name} exited with ${proc.child.exitCode}:\n${proc.output.slice(-30).join('\n')}`);
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (r.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${proc.name} not healthy at ${url} after ${timeoutMs} ms:\n${proc.output.slice(-30).join('\n')}`);
}

/**
 * Starts every service and then the gateway; resolves when all answer /api/health. Each service gets 12 + 4
 * connections unless DATABASE_POOL_SIZE says otherwise: four of them fit Postgres's default 100.
 */
export async function startDistributed(opts: {
  env: Record<string, string | undefined>;
  gatewayPort: number;
  firstServicePort: number;
  echo?: boolean;
}): Promise<{ procs: Proc[]; stop(): Promise<void> }> {
  const procs: Proc[] = [];
  const urls: string[] = [];
  try {
    for (const [i, s] of SERVICES.entries()) urls.push(`${s.name}=http://127.0.0.1:${opts.firstServicePort + i}`);
    // Services find their peers (checkout -> catalog inventory, order placement, the gateway's sandbox) in
    // SERVICE_URLS.
    const peers = [...urls, `gateway=http://127.0.0.1:${opts.gatewayPort}`].join(',');
    for (const [i, s] of SERVICES.entries()) {
      procs.push(
        startProcess(
          s.name,
          s.entry,
          {
            ...opts.env,
            PORT: String(opts.firstServicePort + i),
            SERVICE_URLS: peers,
            DATABASE_POOL_SIZE: opts.env.DATABASE_POOL_SIZE ?? '12',
          },
          opts.echo,
        ),
      );
    }
    // Services start concurrently; migrations are serialised by an advisory lock.
    await Promise.all(
      SERVICES.map((_, i) => waitForHealthy(`http://127.0.0.1:${opts.firstServicePort + i}/api/health`, procs[i]!)),
    );
    const gw = startProcess(
      'gateway',
      'services/gateway/src/main.ts',
      { ...opts.env, PORT: String(opts.gatewayPort), SERVICE_URLS: urls.join(',') },
      opts.echo,
    );
    procs.push(gw);
    await waitForHealthy(`http://127.0.0.1:${opts.gatewayPort}/api/health`, gw);
  } catch (err) {
    for (const p of procs) p.child.kill('SIGTERM');
    throw err;
  }
  return {
    procs,
    async stop() {
      await Promise.all(
        procs.map(
          (p) =>
            new Promise<void>((resolve) => {
              if (p.child.exitCode !== null) return resolve();
              const t = setTimeout(() => p.child.kill('SIGKILL'), 8000);
              p.child.once('exit', () => {
                clearTimeout(t);
                resolve();
              });
              p.child.kill('SIGTERM');
            }),
        ),
      );
    },
  };
}
