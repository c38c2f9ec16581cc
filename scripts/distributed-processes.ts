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
  return spawnKept(name, TSX, [...nodeArgs, path.join(ROOT, entry)], env, echo);
}

/** Spawns a process in the repository, keeping its last 200 output lines (echoed when asked). */
function spawnKept(
  name: string,
  command: string,
  args: string[],
  env: Record<string, string | undefined>,
  echo: boolean,
): Proc {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { name, child, output: keepOutput(child, echo ? name : undefined) };
}

/**
 * A child process's last 200 output lines (stdout and stderr, as they come), for error reports; each also
 * echoed as `[echoAs] line` when `echoAs` is given.
 */
export function keepOutput(child: ChildProcess, echoAs?: string): string[] {
  const output: string[] = [];
  const keep = (d: Buffer) => {
    for (const line of d.toString().split('\n').filter(Boolean)) {
      output.push(line);
      if (output.length > 200) output.shift();
      if (echoAs !== undefined) console.log(`[${echoAs}] ${line}`);
    }
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return output;
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

/**
 * Like startProcess, but node itself runs the entry (tsx's loader in-process), so `child.pid` is the service
 * process: a `kill -9` of it is the crash of the service (with the tsx CLI, a tsx parent stands in front and
 * its node child would live on).
 */
export function startNodeProcess(
  name: string,
  entry: string,
  env: Record<string, string | undefined>,
  echo = false,
): Proc {
  return spawnKept(name, process.execPath, ['--import', 'tsx', path.join(ROOT, entry)], env, echo);
}

/** A distributed shop whose processes can be crashed (`kill -9`) and started again one at a time. */
export interface CrashableDistributedShop {
  procs: Proc[];
  /** The process now running as `name` (catalog, accounts, checkout, order, gateway). */
  proc(name: string): Proc;
  /** `kill -9` of that process; resolves when it is gone. */
  kill9(name: string): Promise<void>;
  /** Starts `name` again with the environment it had (plus `env`); resolves when it answers /api/health. */
  restart(name: string, env?: Record<string, string | undefined>): Promise<Proc>;
  stop(): Promise<void>;
}

/**
 * startDistributed's shop, each process started by startNodeProcess (so `kill -9` reaches the service
 * itself), with kill9 and restart of one process at a time on the same port and environment.
 */
export async function startCrashableDistributed(opts: {
  env: Record<string, string | undefined>;
  gatewayPort: number;
  firstServicePort: number;
  echo?: boolean;
}): Promise<CrashableDistributedShop> {
  const urls = SERVICES.map((s, i) => `${s.name}=http://127.0.0.1:${opts.firstServicePort + i}`);
  const peers = [...urls, `gateway=http://127.0.0.1:${opts.gatewayPort}`].join(',');
  const specs = new Map<string, { entry: string; port: number; env: Record<string, string | undefined> }>();
  for (const [i, s] of SERVICES.entries())
    specs.set(s.name, {
      entry: s.entry,
      port: opts.firstServicePort + i,
      env: {
        ...opts.env,
        PORT: String(opts.firstServicePort + i),
        SERVICE_URLS: peers,
        DATABASE_POOL_SIZE: opts.env.DATABASE_POOL_SIZE ?? '12',
      },
    });
  specs.set('gateway', {
    entry: 'services/gateway/src/main.ts',
    port: opts.gatewayPort,
    env: { ...opts.env, PORT: String(opts.gatewayPort), SERVICE_URLS: urls.join(',') },
  });
  const procs: Proc[] = [];
  const spec = (name: string) => {
    const s = specs.get(name);
    if (!s) throw new Error(`no process ${name}`);
    return s;
  };
  const launch = (name: string, extra: Record<string, string | undefined> = {}) => {
    const s = spec(name);
    const p = startNodeProcess(name, s.entry, { ...s.env, ...extra }, opts.echo);
    const i = procs.findIndex((x) => x.name === name);
    if (i >= 0) procs[i] = p;
    else procs.push(p);
    return p;
  };
  const healthy = (name: string, p: Proc) =>
    waitForHealthy(`http://127.0.0.1:${spec(name).port}/api/health`, p, 120_000);
  const gone = (p: Proc) =>
    p.child.exitCode !== null || p.child.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => p.child.once('exit', () => resolve()));
  const proc = (name: string) => {
    const p = procs.find((x) => x.name === name);
    if (!p) throw new Error(`no process ${name}`);
    return p;
  };
  const stop = async () => {
    await Promise.all(
      procs.map((p) => {
        const exited = gone(p);
        if (p.child.exitCode === null && p.child.signalCode === null) {
          const t = setTimeout(() => p.child.kill('SIGKILL'), 8000);
          void exited.then(() => clearTimeout(t));
          p.child.kill('SIGTERM');
        }
        return exited;
      }),
    );
  };
  try {
    const started = SERVICES.map((s) => launch(s.name));
    await Promise.all(SERVICES.map((s, i) => healthy(s.name, started[i]!)));
    await healthy('gateway', launch('gateway'));
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    procs,
    proc,
    async kill9(name) {
      const p = proc(name);
      const exited = gone(p);
      p.child.kill('SIGKILL');
      await exited;
    },
    async restart(name, env = {}) {
      const old = proc(name);
      if (old.child.exitCode === null && old.child.signalCode === null) throw new Error(`${name} is still running`);
      const p = launch(name, env);
      await healthy(name, p);
      return p;
    },
    stop,
  };
}
