import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './free-port.ts';
import { startEmbeddedPostgres } from './embedded-postgres.ts';

const dirs: string[] = [];
const stops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const stop of stops) await stop().catch(() => undefined);
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('embedded Postgres', () => {
  it('starts on another port when the one it chose is taken before its server binds it (two shops starting at once)', async () => {
    // The port is free when checked, then another server takes it: here it is taken all along and the check
    // is one that misses it, as a check made just before the other server bound would.
    const port = await freePort();
    const other = net.createServer();
    await new Promise<void>((resolve) => other.listen(port, '127.0.0.1', resolve));
    try {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-pg-'));
      dirs.push(dir);
      const logs: string[] = [];
      const server = await startEmbeddedPostgres({
        dataDir: path.join(dir, 'postgres'),
        port,
        firstPort: async (p) => p,
        onLog: (l) => logs.push(l),
      });
      stops.push(server.stop);
      expect(new URL(server.url).port).not.toBe(String(port));
      expect(logs.some((l) => l.includes(`port ${port} was taken meanwhile`))).toBe(true);
      const c = new pg.Client({ connectionString: server.url });
      await c.connect();
      expect((await c.query('SELECT 1 AS one')).rows[0]).toEqual({ one: 1 });
      await c.end();
    } finally {
      await new Promise((r) => other.close(r));
    }
  }, 120_000);
});
