import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitUntil } from '../../../../tests/support/wait-until.ts';
import { clearPreviousServer, isPostgresOn, isProcessAlive, startWatchdog } from './postgres-process.ts';

/**
 * A stand-in for a postmaster, so these cases run without starting PostgreSQL: a process whose command line
 * is `postgres ... -D <dataDir>` that writes postmaster.pid and, on SIGINT (fast shutdown), removes it and
 * exits; `ignoreInt` makes it ignore SIGINT like a server that does not finish its shutdown.
 * (The real server is covered by tests/e2e/crash-restart.e2e.spec.ts.)
 */
function fakePostmaster(dataDir: string, opts: { ignoreInt?: boolean } = {}): Promise<ChildProcess> {
  const script = `
    const fs = require('node:fs');
    const pidFile = require('node:path').join(${JSON.stringify(dataDir)}, 'postmaster.pid');
    fs.writeFileSync(pidFile, process.pid + '\\n' + ${JSON.stringify(dataDir)} + '\\n');
    process.on('SIGINT', () => { if (!${opts.ignoreInt ? 'true' : 'false'}) { fs.rmSync(pidFile); process.exit(0); } });
    process.on('SIGQUIT', () => process.exit(3));
    setInterval(() => {}, 1000);
    console.log('ready');
  `;
  const child = spawn(process.execPath, ['-e', script, '--', '-D', dataDir], {
    argv0: path.join(os.tmpdir(), 'bin', 'postgres'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`fake postmaster exited with ${code}`)));
  });
}

let dataDir: string;
let children: ChildProcess[] = [];

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-pgproc-'));
});
afterEach(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  children = [];
  fs.rmSync(dataDir, { recursive: true, force: true });
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
      const other = await fakePostmaster(otherDir);
      fs.writeFileSync(pidFile(), `${other.pid}\n${dataDir}\n`);
      expect(isPostgresOn(other.pid!, otherDir)).toBe(true);
      expect(isPostgresOn(other.pid!, dataDir)).toBe(false);
      expect(await clearPreviousServer(dataDir)).toBe('stale');
      expect(isProcessAlive(other.pid!)).toBe(true);
    } finally {
      fs.rmSync(otherDir, { recursive: true, force: true });
    }
  });

  it('stops a server still running on the data directory with a fast shutdown and waits for it to exit', async () => {
    const server = await fakePostmaster(dataDir);
    const exited = new Promise<NodeJS.Signals | number | null>((r) =>
      server.once('exit', (code, signal) => r(signal ?? code)),
    );
    expect(await clearPreviousServer(dataDir)).toBe('stopped');
    expect(isProcessAlive(server.pid!)).toBe(false);
    expect(await exited).toBe(0); // its SIGINT handler ran
    expect(fs.existsSync(pidFile())).toBe(false);
  });

  it('falls back to an immediate shutdown when the fast one does not finish in time', async () => {
    const server = await fakePostmaster(dataDir, { ignoreInt: true });
    const exited = new Promise<NodeJS.Signals | number | null>((r) =>
      server.once('exit', (code, signal) => r(signal ?? code)),
    );
    expect(await clearPreviousServer(dataDir, { fastMs: 300 })).toBe('stopped');
    expect(await exited).toBe(3); // SIGQUIT
    expect(fs.existsSync(pidFile())).toBe(false);
  });
});

describe('startWatchdog', () => {
  it('fast-stops the server once the parent process dies, and not before', async () => {
    const parent = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    children.push(parent);
    const server = await fakePostmaster(dataDir);
    const exited = new Promise<NodeJS.Signals | number | null>((r) =>
      server.once('exit', (code, signal) => r(signal ?? code)),
    );
    const watchdog = startWatchdog({ parentPid: parent.pid!, postgresPid: server.pid!, dataDir });
    // the watchdog is running and the server with it
    await waitUntil(() => watchdog.pid !== undefined && isProcessAlive(watchdog.pid), 'the watchdog to run');
    expect(isProcessAlive(server.pid!)).toBe(true);

    parent.kill('SIGKILL');
    expect(await exited).toBe(0); // stopped by SIGINT (fast shutdown), not killed
    await waitUntil(() => !isProcessAlive(watchdog.pid!), 'the watchdog to exit', 5000);
  });

  it('leaves the server alone and exits when it was stopped cleanly (pid file gone) before the parent died', async () => {
    const parent = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    children.push(parent);
    // a process standing for a server that stopped cleanly and whose pid was reused
    const reused = await fakePostmaster(dataDir);
    fs.rmSync(pidFile());
    const watchdog = startWatchdog({ parentPid: parent.pid!, postgresPid: reused.pid!, dataDir });
    parent.kill('SIGKILL');
    await waitUntil(() => watchdog.pid !== undefined && !isProcessAlive(watchdog.pid), 'the watchdog to exit', 5000);
    expect(isProcessAlive(reused.pid!)).toBe(true);
  });
});
