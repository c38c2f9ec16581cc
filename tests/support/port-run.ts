import { SERVICES } from '../../scripts/distributed-processes.ts';
import { freePort } from '@shop/shared/db/free-port';

/**
 * Ports for a distributed shop's gateway and, after it, each service (startDistributed puts them on
 * firstServicePort, +1, ...): a run that is free now, below Linux's ephemeral range (32768-60999). Ports in
 * that range can be taken by any outgoing connection (Postgres, Redis, Kafka) in the half minute before a
 * process listens, which failed start-up with EADDRINUSE.
 */
export async function freePortRun(): Promise<{ gatewayPort: number; firstServicePort: number }> {
  const length = SERVICES.length + 1;
  for (let attempt = 0; attempt < 50; attempt++) {
    const first = 20_000 + Math.floor(Math.random() * (32_768 - 20_000 - length));
    const run = Array.from({ length }, (_, i) => first + i);
    if ((await Promise.all(run.map((p) => freePort(p)))).every((p, i) => p === run[i]))
      return { gatewayPort: first, firstServicePort: first + 1 };
  }
  throw new Error(`no run of ${length} free ports found`);
}
