import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '@shop/shared/db/embedded-postgres';
import { startKafkaContainer, startPostgresContainer, startRedisContainer, type Started } from './containers.ts';
import { startMockKafka } from './kafka-broker.ts';
import { startTestRedis } from './redis-server.ts';
import { chooseSources, containerRuntimeAnswers, describeSources, type Service } from './service-sources.ts';
import { recordSources } from './sources-reporter.ts';
import { Stops } from './stops.ts';

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
 * Gets the real services the integration and e2e tiers talk to (see service-sources.ts): containers when a
 * runtime answers or TESTCONTAINERS=1, else those the environment names, else started here. Prints which,
 * and the summary prints it again. A tier that cannot get its service fails loudly rather than skipping.
 */
export default async function setup(project: TestProject) {
  const stops = new Stops((e) => console.error('[tests] teardown', e));
  const tmp = path.join(ROOT, '.tmp', `${project.name}-${process.pid}`);
  fs.mkdirSync(tmp, { recursive: true });
  const env = process.env;
  const sources = chooseSources(env, await containerRuntimeAnswers(env));

  const local: Record<Service, () => Promise<Started>> = {
    postgres: async () => {
      const pg = await startEmbeddedPostgres({ dataDir: path.join(tmp, 'pg'), database: 'test' });
      return { url: pg.url, stop: pg.stop };
    },
    redis: startTestRedis,
    kafka: async () => {
      const kafka = await startMockKafka();
      return { url: kafka.brokers, stop: kafka.stop };
    },
  };
  const container: Record<Service, () => Promise<Started>> = {
    postgres: startPostgresContainer,
    redis: startRedisContainer,
    kafka: startKafkaContainer,
  };
  const get = async (service: Service): Promise<string> => {
    const source = sources[service];
    if (source.kind === 'env') return env[source.variable] as string;
    const started = await (source.kind === 'testcontainers' ? container : local)[service]();
    stops.push(started.stop);
    return started.url;
  };
  try {
    project.provide('postgresUrl', await get('postgres'));
    project.provide('redisUrl', await get('redis'));
    project.provide('kafkaBrokers', await get('kafka'));
  } catch (e) {
    await stops.stopAll();
    throw e;
  }
  const line = describeSources(sources);
  console.log(`[tests] ${project.name}: ${line}`);
  recordSources(project.name, line);

  return async () => {
    await stops.stopAll();
    fs.rmSync(tmp, { recursive: true, force: true });
  };
}
