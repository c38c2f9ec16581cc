import { describe, expect, it } from 'vitest';
import { chooseSources, containersWanted, describeSources, mayHaveRuntime, runtimeHints } from './service-sources.ts';

const ALL_ENV = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
  REDIS_URL: 'redis://127.0.0.1:6379',
  KAFKA_BROKERS: '127.0.0.1:9092',
};

describe('where the test tiers get Postgres, Redis and Kafka', () => {
  it('takes containers for all three when a runtime answers, whatever the environment names', () => {
    for (const env of [{}, ALL_ENV]) {
      const s = chooseSources(env, true);
      expect(describeSources(s)).toBe(
        'postgres: testcontainers postgres:17-alpine | redis: testcontainers redis:7-alpine | kafka: testcontainers apache/kafka:4.1.1',
      );
    }
  });

  it('without a runtime, takes each service from its variable, else starts it locally', () => {
    expect(describeSources(chooseSources({ REDIS_URL: ALL_ENV.REDIS_URL }, false))).toBe(
      'postgres: local embedded Postgres | redis: env REDIS_URL | kafka: local kcat mock broker',
    );
    expect(describeSources(chooseSources(ALL_ENV, false))).toBe(
      'postgres: env DATABASE_URL | redis: env REDIS_URL | kafka: env KAFKA_BROKERS',
    );
  });

  it('TESTCONTAINERS=0 refuses containers even when a runtime answers', () => {
    const s = chooseSources({ ...ALL_ENV, TESTCONTAINERS: '0' }, true);
    expect(s.postgres).toEqual({ kind: 'env', variable: 'DATABASE_URL' });
    expect(s.kafka).toEqual({ kind: 'env', variable: 'KAFKA_BROKERS' });
  });

  it('TESTCONTAINERS=1 without a runtime fails loudly instead of falling back', () => {
    expect(() => chooseSources({ ...ALL_ENV, TESTCONTAINERS: '1' }, false)).toThrow(/no container runtime answers/);
    expect(chooseSources({ TESTCONTAINERS: 'true' }, true).redis).toEqual({
      kind: 'testcontainers',
      image: 'redis:7-alpine',
    });
  });

  it('reads TESTCONTAINERS as required, never or detect', () => {
    expect(containersWanted({ TESTCONTAINERS: '1' })).toBe('required');
    expect(containersWanted({ TESTCONTAINERS: 'false' })).toBe('never');
    expect(containersWanted({})).toBe('if-runtime');
    expect(containersWanted({ TESTCONTAINERS: 'maybe' })).toBe('if-runtime');
  });

  it('asks the runtime only when a socket, DOCKER_HOST or TESTCONTAINERS=1 hints at one', () => {
    const none = () => false;
    expect(mayHaveRuntime({}, none)).toBe(false);
    expect(mayHaveRuntime({ DOCKER_HOST: 'tcp://127.0.0.1:2375' }, none)).toBe(true);
    expect(mayHaveRuntime({ TESTCONTAINERS: '1' }, none)).toBe(true);
    expect(mayHaveRuntime({}, (p) => p === '/var/run/docker.sock')).toBe(true);
    const rootless = runtimeHints({ XDG_RUNTIME_DIR: '/run/user/1000' }).find((p) => p.endsWith('podman.sock'));
    expect(rootless).toBe('/run/user/1000/podman/podman.sock');
    expect(mayHaveRuntime({ XDG_RUNTIME_DIR: '/run/user/1000' }, (p) => p === rootless)).toBe(true);
  });
});
