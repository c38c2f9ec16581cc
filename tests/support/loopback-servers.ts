import type { Server } from 'node:http';
import { listen } from '@shop/shared/runtime/host';

/** Closes a server, cutting its open connections first (keep-alive sockets and streams would hold it open). */
export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/**
 * Apps a test serves on 127.0.0.1, each at a port of its own: `serve` answers the server and its base URL,
 * `closeAll` closes every one served so far (closeServer), in the order they were served.
 */
export function loopbackServers() {
  const servers: Server[] = [];
  return {
    async serve(app: Parameters<typeof listen>[0]): Promise<{ server: Server; url: string }> {
      const { server, port } = await listen(app, 0, '127.0.0.1');
      servers.push(server);
      return { server, url: `http://127.0.0.1:${port}` };
    },
    async closeAll(): Promise<void> {
      for (const server of servers.splice(0)) await closeServer(server);
    },
  };
}
