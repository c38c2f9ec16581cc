import net from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { containerRuntimeAnswers } from './service-sources.ts';

// The selection itself is in service-sources.unit.spec.ts; this is the runtime detection, over a socket.
describe('container runtime detection', () => {
  it("asks through testcontainers' own detection (DOCKER_HOST here), and not at all under TESTCONTAINERS=0", async () => {
    // A "daemon" that hangs up on every connection: detection reaches it, finds no runtime, answers no.
    const server = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    let connections = 0;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const dockerHost = `tcp://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
    vi.stubEnv('DOCKER_HOST', dockerHost);
    try {
      expect(await containerRuntimeAnswers({ TESTCONTAINERS: '0', DOCKER_HOST: dockerHost })).toBe(false);
      expect(connections).toBe(0);
      expect(await containerRuntimeAnswers({ DOCKER_HOST: dockerHost })).toBe(false);
      expect(connections).toBeGreaterThan(0);
    } finally {
      vi.unstubAllEnvs();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
