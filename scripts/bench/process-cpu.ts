/**
 * CPU time used by node processes below this one (Linux /proc), for "CPU per request" figures: unlike
 * requests per second, which move with whatever else the machine runs, the CPU a request costs the shop
 * changes little when the load generator and other work share the cores.
 */
import fs from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on Linux for x86 and arm

interface ProcStat {
  pid: number;
  ppid: number;
  comm: string;
  cpuSeconds: number;
  /** Of its children that ended and were waited for (Postgres's backends of closed connections). */
  endedChildrenCpuSeconds: number;
}

function readStat(pid: number): ProcStat | null {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // comm is in parentheses and may hold spaces: the fields after it start past the last ')'
    const close = s.lastIndexOf(')');
    const comm = s.slice(s.indexOf('(') + 1, close);
    const f = s.slice(close + 2).split(' ');
    // fields from state (3): ppid is 4, utime 14, stime 15, cutime 16, cstime 17 (1-based in proc(5))
    return {
      pid,
      ppid: Number(f[1]),
      comm,
      cpuSeconds: (Number(f[11]) + Number(f[12])) / TICKS_PER_SECOND,
      endedChildrenCpuSeconds: (Number(f[13]) + Number(f[14])) / TICKS_PER_SECOND,
    };
  } catch {
    return null;
  }
}

/** Whether /proc can be read here (Linux); elsewhere the figures are left out. */
export const canMeasureCpu = (): boolean => readStat(process.pid) !== null;

const isNode = (comm: string) => comm === 'node' || comm.startsWith('node ');
/** The embedded Postgres's server processes (the postmaster and its backends are all named "postgres"). */
export const isPostgres = (comm: string) => comm === 'postgres';

/**
 * CPU seconds (user + system) of every node process below `root` (default: this process, which is not
 * counted), or with `counted` of every process so named (`isPostgres`), leaving out the subtrees of `excluded`
 * pids (e.g. the bare-express ceiling's server). A counted process's children that have ended count too (a
 * Postgres backend ends with its connection, and its postmaster is left holding its time).
 */
export function processesCpuSeconds(
  opts: { root?: number; excluded?: number[]; counted?: (comm: string) => boolean } = {},
): number {
  const counted = opts.counted ?? isNode;
  const root = opts.root ?? process.pid;
  const excluded = new Set(opts.excluded ?? []);
  const all = fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => readStat(Number(d)))
    .filter((p): p is ProcStat => p !== null);
  const children = new Map<number, ProcStat[]>();
  for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  let total = 0;
  const walk = (pid: number) => {
    for (const c of children.get(pid) ?? []) {
      if (excluded.has(c.pid)) continue;
      // A counted process's ended children count too: a pool closing idle connections ends their backends.
      if (counted(c.comm)) total += c.cpuSeconds + c.endedChildrenCpuSeconds;
      walk(c.pid);
    }
  };
  walk(root);
  return total;
}

/** CPU seconds (user + system) so far of each of `pids` still running (e.g. a shared Postgres's backends). */
export function cpuSecondsOf(pids: number[]): Map<number, number> {
  const seconds = new Map<number, number>();
  for (const pid of pids) {
    const stat = readStat(pid);
    if (stat) seconds.set(pid, stat.cpuSeconds);
  }
  return seconds;
}
