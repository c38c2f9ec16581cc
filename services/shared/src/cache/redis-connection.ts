import { Redis } from 'ioredis';
import type { Logger } from '../observability/logger.ts';

/** A Redis URL (the adapter opens and later quits its own connection) or a client the caller owns. */
export type RedisConnection = string | Redis;

/**
 * Opens a connection from a URL, or borrows the given client; `owned` says whether close() must quit it.
 * `failFast`: a command sent while the connection is down fails after one reconnect attempt instead of
 * waiting through ioredis's 20 (about 10 s): for callers that have somewhere else to go (the cache).
 */
export function openRedis(
  connection: RedisConnection,
  logger: Logger,
  component: string,
  options: { failFast?: boolean } = {},
): { client: Redis; owned: boolean } {
  if (typeof connection !== 'string') return { client: connection, owned: false };
  const client = new Redis(connection, options.failFast ? { maxRetriesPerRequest: 1 } : {});
  // Without a listener ioredis prints every reconnect attempt; commands still reject while it is down.
  client.on('error', (err: Error) => logger.warn({ err, component }, 'Redis connection error'));
  return { client, owned: true };
}

/** Quits a connection, ignoring one that is already closed. */
export async function quitRedis(client: Redis): Promise<void> {
  if (client.status === 'end') return;
  await client.quit().catch(() => client.disconnect());
}
