import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Where the integration and e2e tiers get Postgres, Redis and Kafka from, decided once per run by the
 * global setup:
 * - `testcontainers`: a container runtime answered (or TESTCONTAINERS=1 demands one): Postgres 17, Redis 7
 *   and Apache Kafka (KRaft) in containers, whatever the environment variables say;
 * - `env`: no runtime (or TESTCONTAINERS=0) and the variable is set: DATABASE_URL, REDIS_URL, KAFKA_BROKERS;
 * - `local`: no runtime and no variable: embedded Postgres, a redis-server child, kcat's mock Kafka broker.
 */
export type Service = 'postgres' | 'redis' | 'kafka';
export type Source =
  { kind: 'testcontainers'; image: string } | { kind: 'env'; variable: string } | { kind: 'local'; what: string };
export type Sources = Record<Service, Source>;

export const IMAGES: Record<Service, string> = {
  postgres: 'postgres:17-alpine',
  redis: 'redis:7-alpine',
  kafka: 'apache/kafka:4.1.1',
};
const VARIABLES: Record<Service, string> = { postgres: 'DATABASE_URL', redis: 'REDIS_URL', kafka: 'KAFKA_BROKERS' };
const LOCAL: Record<Service, string> = {
  postgres: 'embedded Postgres',
  redis: 'redis-server',
  kafka: 'kcat mock broker',
};
const SERVICES: Service[] = ['postgres', 'redis', 'kafka'];

type Env = Record<string, string | undefined>;

/** TESTCONTAINERS=1 demands containers, 0 refuses them; anything else leaves it to detection. */
export function containersWanted(env: Env): 'required' | 'never' | 'if-runtime' {
  const v = env.TESTCONTAINERS?.trim().toLowerCase();
  if (v === '1' || v === 'true') return 'required';
  if (v === '0' || v === 'false') return 'never';
  return 'if-runtime';
}

/** The pure choice, given whether a container runtime answered. */
export function chooseSources(env: Env, runtimeAnswers: boolean): Sources {
  const wanted = containersWanted(env);
  if (wanted === 'required' && !runtimeAnswers)
    throw new Error('TESTCONTAINERS=1 but no container runtime answers (is Docker or Podman running?)');
  const containers = wanted !== 'never' && runtimeAnswers;
  const pick = (s: Service): Source =>
    containers
      ? { kind: 'testcontainers', image: IMAGES[s] }
      : env[VARIABLES[s]]
        ? { kind: 'env', variable: VARIABLES[s] }
        : { kind: 'local', what: LOCAL[s] };
  return { postgres: pick('postgres'), redis: pick('redis'), kafka: pick('kafka') };
}

/** One line: "postgres: testcontainers postgres:17-alpine | redis: env REDIS_URL | kafka: local kcat mock broker". */
export function describeSources(sources: Sources): string {
  const one = (s: Source) =>
    s.kind === 'testcontainers'
      ? `testcontainers ${s.image}`
      : s.kind === 'env'
        ? `env ${s.variable}`
        : `local ${s.what}`;
  return SERVICES.map((s) => `${s}: ${one(sources[s])}`).join(' | ');
}

/**
 * Places a container runtime's socket or settings would be. Without any of them (and without DOCKER_HOST
 * or TESTCONTAINERS=1) detection is skipped, so a machine without Docker does not wait on it.
 */
export function runtimeHints(env: Env, home = os.homedir()): string[] {
  const xdg = env.XDG_RUNTIME_DIR;
  return [
    '/var/run/docker.sock',
    path.join(home, '.docker/run/docker.sock'),
    path.join(home, '.docker/desktop/docker.sock'),
    path.join(home, '.testcontainers.properties'),
    ...(xdg ? [path.join(xdg, 'docker.sock'), path.join(xdg, 'podman/podman.sock')] : []),
  ];
}

export function mayHaveRuntime(env: Env, exists: (p: string) => boolean = fs.existsSync): boolean {
  if (containersWanted(env) === 'required' || env.DOCKER_HOST) return true;
  return runtimeHints(env).some(exists);
}

/**
 * Whether a container runtime answers, by testcontainers' own detection (DOCKER_HOST, the
 * ~/.testcontainers.properties, the usual sockets, rootless and Podman), given `timeoutMs` at most.
 */
export async function containerRuntimeAnswers(env: Env, timeoutMs = 15_000): Promise<boolean> {
  if (containersWanted(env) === 'never' || !mayHaveRuntime(env)) return false;
  const { getContainerRuntimeClient } = await import('testcontainers');
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([getContainerRuntimeClient(), timeout]);
    return true;
  } catch (e) {
    console.warn(`[tests] no container runtime: ${(e as Error).message}`);
    return false;
  } finally {
    clearTimeout(timer);
  }
}
