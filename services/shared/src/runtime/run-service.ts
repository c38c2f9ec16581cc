import { ConfigError, loadConfig } from '../config/config.ts';
import { listenWhileStarting } from '../http/starting.ts';
import { gateRequests, SHUTDOWN_LINGER_MS } from './graceful-shutdown.ts';
import { buildServiceApp, handleProcessSignals, startModules } from './host.ts';
import { createInfrastructure } from './infrastructure.ts';
import type { ServiceContext, ServiceModule } from './service.ts';

/**
 * Runs one service as its own process (distributed mode): its HTTP routes, its consumers and the outbox
 * relay of its own schema. Needs DATABASE_URL: separate processes must share one Postgres server.
 */
export async function runService(
  name: string,
  schema: string,
  factory: (ctx: ServiceContext) => ServiceModule,
): Promise<void> {
  let config;
  try {
    config = loadConfig();
    if (!config.DATABASE_URL) throw new ConfigError(['DATABASE_URL: required when a service runs as its own process']);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  // Listen at once and answer 503 "Starting" until migrations and consumers are up: a request in those
  // seconds is answered rather than refused or left hanging.
  const listening = await listenWhileStarting(config.PORT, '0.0.0.0', name);
  const { server, port } = listening;
  const infra = await createInfrastructure(config, name);
  if (!config.REDIS_URL) infra.logger.warn('REDIS_URL unset: cache, pub/sub and jobs are in-process for this service');
  if (!config.KAFKA_BROKERS) infra.logger.warn('KAFKA_BROKERS unset: consumers read the Postgres event log');
  const module = factory(infra.context);
  const app = buildServiceApp(infra, [module], { service: name });
  const running = await startModules(infra, [module], [schema]);
  const gate = gateRequests(server, { service: name, logger: infra.logger });
  listening.ready(app);
  infra.logger.info({ port }, `${name} service listening`);
  handleProcessSignals(infra, async () => {
    // New requests are told "Shutting down"; push streams end; requests in flight finish (bounded), with
    // the consumers they may wait on still running. Then consumers, relays, jobs and pools stop.
    await gate.drain({ lingerMs: SHUTDOWN_LINGER_MS, endStreams: () => running.drain() });
    await running.stop();
    await infra.close();
  });
}
