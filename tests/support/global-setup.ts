import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '@shop/shared/db/embedded-postgres';
import { startTestRedis } from './redis-server.ts';
import { startMockKafka } from './kafka-broker.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of a Postgres server (tests create their own databases on it). */
    postgresUrl: string;
    redisUrl: string;
    kafkaBrokers: string;
  }
}

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Finds the real services the integration and e2e tiers talk to: those given by environment variables
 * (DATABASE_URL, REDIS_URL, KAFKA_BROKERS), else starts them (embedded Postgres, redis-server, a
 * Kafka-protocol mock broker). No container runtime answers on these machines, so testcontainers is not used.
 * A tier that cannot get its service fails loudly rather than skipping.
 */
export default async function setup(project: TestProject) {
  const stops: Array<() => Promise<void>> = [];
  const tmp = path.join(ROOT, '.tmp', `${project.name}-${process.pid}`);
  fs.mkdirSync(tmp, { recursive: true });

  let postgresUrl = process.env.DATABASE_URL;
  if (!postgresUrl) {
    console.warn('[tests] DATABASE_URL unset: starting embedded Postgres');
    const pg = await startEmbeddedPostgres({ dataDir: path.join(tmp, 'pg'), database: 'test' });
    postgresUrl = pg.url;
    stops.push(pg.stop);
  }
  let redisUrl = process.env.REDIS_URL;
  if (!redisUrl) {
    console.warn('[tests] REDIS_URL unset: starting redis-server');
    const redis = await startTestRedis();
    redisUrl = redis.url;
    stops.push(redis.stop);
  }
  let kafkaBrokers = process.env.KAFKA_BROKERS;
  if (!kafkaBrokers) {
    console.warn('[tests] KAFKA_BROKERS unset: starting a Kafka-protocol mock broker');
    const kafka = await startMockKafka();
    kafkaBrokers = kafka.brokers;
    stops.push(kafka.stop);
  }
  project.provide('postgresUrl', postgresUrl);
  project.provide('redisUrl', redisUrl);
  project.provide('kafkaBrokers', kafkaBrokers);

  return async () => {
    for (const stop of stops.reverse()) await stop().catch((e) => console.error('[tests] teardown', e));
    fs.rmSync(tmp, { recursive: true, force: true });
  };
}
