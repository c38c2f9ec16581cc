import { freePort } from '@shop/shared/db/free-port';
import { IMAGES } from './service-sources.ts';

/** A service the test tiers use, started in a container, and how to stop it. */
export interface Started {
  url: string;
  stop(): Promise<void>;
}

/** Postgres 17: its admin URL (tests create their own databases on it). */
export async function startPostgresContainer(): Promise<Started> {
  const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
  const c = await new PostgreSqlContainer(IMAGES.postgres).start();
  return { url: c.getConnectionUri(), stop: async () => void (await c.stop()) };
}

/** Redis 7: its URL. */
export async function startRedisContainer(): Promise<Started> {
  const { RedisContainer } = await import('@testcontainers/redis');
  const c = await new RedisContainer(IMAGES.redis).start();
  return { url: c.getConnectionUrl(), stop: async () => void (await c.stop()) };
}

/**
 * Apache Kafka in KRaft mode (one node, broker and controller), on a host port chosen before start so the
 * broker can advertise it; topics auto-create with 4 partitions, as the bus adapters expect.
 * (@testcontainers/kafka has no 12.0.1 release, and its 12.0.3 needs testcontainers 12.0.3, which needs
 * Node 22: the generic container does the same for the official image.)
 */
export async function startKafkaContainer(): Promise<Started> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const port = await freePort();
  const c = await new GenericContainer(IMAGES.kafka)
    .withExposedPorts({ container: 9092, host: port })
    .withEnvironment({
      KAFKA_NODE_ID: '1',
      KAFKA_PROCESS_ROLES: 'broker,controller',
      KAFKA_LISTENERS: 'PLAINTEXT://:9092,CONTROLLER://:9093',
      KAFKA_ADVERTISED_LISTENERS: `PLAINTEXT://127.0.0.1:${port}`,
      KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
      KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
      KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
      KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
      KAFKA_NUM_PARTITIONS: '4',
      KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'true',
    })
    .withWaitStrategy(Wait.forLogMessage(/Kafka Server started/))
    .start();
  return { url: `127.0.0.1:${port}`, stop: async () => void (await c.stop()) };
}
