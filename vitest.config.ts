import { defineConfig } from 'vitest/config';

// Test tiers are named by file suffix: *.unit.spec.ts (pure, no I/O), *.int.spec.ts (real Postgres,
// Redis and a Kafka-protocol broker), *.e2e.spec.ts (whole processes over HTTP).
export default defineConfig({
  test: {
    // The second reporter prints, after the summary, where Postgres, Redis and Kafka came from.
    reporters: ['default', './tests/support/sources-reporter.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['services/**/*.unit.spec.ts', 'tests/**/*.unit.spec.ts', 'scripts/**/*.unit.spec.ts'],
        },
      },
      {
        test: {
          name: 'int',
          include: ['services/**/*.int.spec.ts', 'tests/**/*.int.spec.ts'],
          globalSetup: ['tests/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.e2e.spec.ts'],
          globalSetup: ['tests/support/global-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        extends: './web/vite.config.ts',
        test: {
          name: 'web',
          root: './web',
          include: ['src/**/*.unit.spec.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['./src/testing/setup.ts'],
          // Screens load lazily; a first import is transformed on demand, slow on a busy machine.
          testTimeout: 20_000,
        },
      },
    ],
  },
});
