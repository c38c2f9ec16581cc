import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { IMAGES } from '@shop/test-support/service-sources';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** `image:` of each top-level service of a compose file (two-space indented service names). */
function composeImages(text: string): Record<string, string> {
  const images: Record<string, string> = {};
  let service: string | undefined;
  for (const line of text.split('\n')) {
    const name = /^ {2}([a-z]+):\s*$/.exec(line);
    if (name) service = name[1];
    const image = /^ {4}image:\s*(\S+)/.exec(line);
    if (service && image) images[service] = image[1]!;
  }
  return images;
}

/** Setting names of .env.example (`NAME=` lines). */
const exampleSettings = () =>
  read('.env.example')
    .split('\n')
    .map((l) => /^([A-Z_]+)=/.exec(l)?.[1])
    .filter((n): n is string => !!n);

describe('docker-compose.yml (issue 25)', () => {
  it('runs Postgres, Redis and Kafka at the versions the test tiers use in their containers', () => {
    const images = composeImages(read('docker-compose.yml'));
    expect(images).toMatchObject({ postgres: IMAGES.postgres, redis: IMAGES.redis, kafka: IMAGES.kafka });
  });

  it('runs each service from dist/ with node itself (PID 1, so SIGTERM reaches the app), one image for all', () => {
    const text = read('docker-compose.yml');
    for (const service of ['catalog', 'accounts', 'checkout', 'order', 'gateway'])
      expect(text).toContain(`command: ['node', '--enable-source-maps', 'dist/${service}.js']`);
    expect(text.match(/^ {4}build:/gm)).toHaveLength(1);
    expect(read('Dockerfile')).toMatch(/^CMD \["node", /m);
  });

  it('.env.example names every setting the stack passes to the services, and compose passes every one it names', () => {
    const compose = read('docker-compose.yml');
    const passed = [...compose.matchAll(/\$\{([A-Z_]+)(?::[-?][^}]*)?\}/g)].map((m) => m[1]!);
    const example = exampleSettings();
    expect(new Set(example)).toEqual(new Set(passed));
  });
});
