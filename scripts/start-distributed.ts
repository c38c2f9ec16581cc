/**
 * npm run start:distributed: gateway and each service as separate processes against DATABASE_URL,
 * REDIS_URL and KAFKA_BROKERS (which must be set; docker compose provides them in production).
 */
import { startDistributed } from './distributed-processes.ts';

const missing = ['DATABASE_URL', 'REDIS_URL', 'KAFKA_BROKERS'].filter((k) => !process.env[k]);
if (missing.length) {
  console.error(`start:distributed needs ${missing.join(', ')} (see README "Distributed mode")`);
  process.exit(2);
}
const gatewayPort = Number(process.env.PORT ?? 8080);
const shop = await startDistributed({ env: {}, gatewayPort, firstServicePort: gatewayPort + 1, echo: true });
console.log(
  `\n  Kapda (distributed) is running at http://127.0.0.1:${gatewayPort}\n  Processes: ${shop.procs.map((p) => `${p.name} (pid ${p.child.pid})`).join(', ')}\n`,
);
const stop = async () => {
  await shop.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
