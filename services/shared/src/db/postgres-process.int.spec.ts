import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitUntil } from '@shop/test-support/wait-until';
import {
  clearPreviousServer,
  isPostgresOn,
  isProcessAlive,
  parentPidOf,
  readPostmasterPid,
  startWatchdog,
} from './postgres-process.ts';

/**
 * A stand-in for a postmaster, so these cases run without starting PostgreSQL: a process whose command line
 * is `postgres ... -D <dataDir>` that writes postmaster.pid and, on SIGINT (fast shutdown), removes it and
 * exits (on SIGQUIT it exits too); it notes which signal ended it in `<dataDir>.exit`. `ignoreInt` makes it
 * ignore SIGINT like a server that does not finish its shutdown. `orphan`: started through a process that
 * exits at once, so that, like a server whose shop was killed, it has no parent but init.
 * (The real server is covered by tests/e2e/crash-restart.e2e.spec.ts.)
 */
async function fakePostmaster(dataDir: string, opts: { ignoreInt?: boolean; orphan?: boolean } = {}): Promise<number> {
  const script = `
    const fs = require('node:fs');
    const dir = ${JSON.stringify(dataDir)};
    const pidFile = require('node:path').join(dir, 'postmaster.pid');
    process.on('SIGINT', () => {
      if (${opts.ignoreInt ? 'true' : 'false'}) return;
      fs.writeFileSync(dir + '.exit', 'SIGINT');
      fs.rmSync(pidFile);
      process.exit(0);
    });
    process.on('SIGQUIT', () => { fs.writeFileSync(dir + '.exit', 'SIGQUIT'); process.exit(3); });
    setInterval(() => {}, 1000);
    fs.writeFileSync(pidFile, process.pid + '\\n' + dir + '\\n');
  `;
  const args = ['-e', script, '--', '-D', dataDir];
  const argv0 = path.join(os.tmpdir(), 'bin', 'postgres');
  if (opts.orphan) {
    const launcher = spawn(
      process.execPath,
      [
        '-e',
        `const c = require('node:child_process').spawn(process.execPath, ${JSON.stringify(args)}, { argv0: ${JSON.stringify(argv0)}, detached: true, stdio: 'ignore' }); c.unref();`,
      ],
      { stdio: 'ignore' },
    );
    await new Promise((r) => launcher.once('exit', r));
  } else {
    children.push(spawn(process.execPath, args, { argv0, stdio: 'ignore' }));
  }
  const pid = await waitUntil(() => readPostmasterPid(dataDir), 'the fake postmaster to write postmaster.pid', 10_000);
  orphans.push(pid);
  return pid;
}

/** How the fake postmaster ended: SIGINT (fast shutdown) or SIGQUIT (immediate). */
const endedBy = (dataDir: string) =>
  waitUntil(
    () => fs.existsSync(`${dataDir}.exit`) && fs.readFileSync(`${dataDir}.exit`, 'utf8'),
    'the fake postmaster to note its end',
    10_000,
  );

let dataDir: string;
let children: ChildProcess[] = [];
let orphans: number[] = [];

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-pgproc-'));
});
afterEach(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const pid of orphans) if (isProcessAlive(pid)) process.kill(pid, 'SIGKILL');
  children = [];
  orphans = [];
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(`${dataDir}.exit`, { force: true });
});

const pidFile = () => path.join(dataDir, 'postmaster.pid');

describe('clearPreviousServer', () => {
  it('does nothing without a postmaster.pid', async () => {
    expect(await clearPreviousServer(dataDir)).toBe('none');
  });

  it('removes a postmaster.pid whose process is dead', async () => {
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((r) => dead.once('exit', r));
    fs.writeFileSync(pidFile(), `${dead.pid}\n${dataDir}\n`);
    expect(await clearPreviousServer(dataDir)).toBe('stale');
    expect(fs.existsSync(pidFile())).toBe(false);
  });

  it('removes a postmaster.pid naming a live process that is not a postgres on this data directory, and leaves that process alone', async () => {
    // this test process: alive, but not a postgres (a reused pid)
    fs.writeFileSync(pidFile(), `${process.pid}\n${dataDir}\n`);
    expect(await clearPreviousServer(dataDir)).toBe('stale');
    expect(fs.existsSync(pidFile())).toBe(false);

    // a postgres on another data directory
    const otherDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-pgproc-other-'));
    try {
      const other = await fakePostmaster(otherDir, { orphan: true });
      fs.writeFileSync(pidFile(), `${other}\n${dataDir}\n`);
      expect(isPostgresOn(other, otherDir)).toBe(true);
      expect(isPostgresOn(other, dataDir)).toBe(false);
      expect(await clearPreviousServer(dataDir)).toBe('stale');
      expect(isProcessAlive(other)).toBe(true);
    } finally {
      fs.rmSync(otherDir, { recursive: true, force: true });
    }
  });

  it('stops a server left running on the data directory (its parent died) with a fast shutdown and waits for it to exit', async () => {
    const server = await fakePostmaster(dataDir, { orphan: true });
    expect(parentPidOf(server)).not.toBe(process.pid);
    expect(await clearPreviousServer(dataDir)).toBe('stopped');
    expect(isProcessAlive(server)).toBe(false);
    expect(await endedBy(dataDir)).toBe('SIGINT');
    expect(fs.existsSync(pidFile())).toBe(false);
  });

  it('falls back to an immediate shutdown when the fast one does not finish in time', async () => {
    const server = await fakePostmaster(dataDir, { orphan: true, ignoreInt: true });
    expect(await clearPreviousServer(dataDir, { fastMs: 300 })).toBe('stopped');
    expect(isProcessAlive(server)).toBe(false);
    expect(await endedBy(dataDir)).toBe('SIGQUIT');
    expect(fs.existsSync(pidFile())).toBe(false);
  });

  it('refuses to touch a server whose parent, a Node process, is alive (another shop on the same data directory)', async () => {
    const server = await fakePostmaster(dataDir); // a child of this (Node) test process
    expect(parentPidOf(server)).toBe(process.pid);
    await expect(clearPreviousServer(dataDir)).rejects.toThrow(/belongs to a running process .*another shop/);
    expect(isProcessAlive(server)).toBe(true);
    expect(readPostmasterPid(dataDir)).toBe(server);
  });
});

describe('startWatchdog', () => {
  it('fast-stops the server once the parent process dies, and not before', async () => {
    const parent = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    children.push(parent);
    const server = await fakePostmaster(dataDir);
    const watchdog = startWatchdog({ parentPid: parent.pid!, postgresPid: server, dataDir });
    await waitUntil(() => watchdog.pid !== undefined && isProcessAlive(watchdog.pid), 'the watchdog to run');
    expect(isProcessAlive(server)).toBe(true);

    parent.kill('SIGKILL');
    expect(await endedBy(dataDir)).toBe('SIGINT'); // a fast shutdown, not a kill
    await waitUntil(() => !isProcessAlive(server), 'the server to exit', 5000);
    await waitUntil(() => !isProcessAlive(watchdog.pid!), 'the watchdog to exit', 5000);
  });

  it('leaves the server alone and exits when it was stopped cleanly (pid file gone) before the parent died', async () => {
    const parent = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    children.push(parent);
    // a process standing for a server that stopped cleanly and whose pid was reused
    const reused = await fakePostmaster(dataDir);
    fs.rmSync(pidFile());
    const watchdog = startWatchdog({ parentPid: parent.pid!, postgresPid: reused, dataDir });
    parent.kill('SIGKILL');
    await waitUntil(() => watchdog.pid !== undefined && !isProcessAlive(watchdog.pid), 'the watchdog to exit', 5000);
    expect(isProcessAlive(reused)).toBe(true);
    expect(fs.existsSync(`${dataDir}.exit`)).toBe(false);
  });
});
