import type { Reporter } from 'vitest/node';

/** Set by the global setup (same process); a global so it holds however each module was loaded. */
const KEY = Symbol.for('@shop/test-support/service-sources');
type Store = Map<string, string>;
const store = (): Store => ((globalThis as Record<symbol, unknown>)[KEY] ??= new Map()) as Store;

export function recordSources(project: string, line: string): void {
  store().set(project, line);
}

/** Prints, under the test summary, where each tier's Postgres, Redis and Kafka came from. */
export default class SourcesReporter implements Reporter {
  onTestRunEnd(): void {
    for (const [project, line] of store()) console.log(`  Services (${project}): ${line}`);
  }
}
