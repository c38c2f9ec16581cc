import type { Pool } from 'pg';
import { schemaIdentifier } from './schema-name.ts';
import type { EventConsumer } from './types.ts';

/** prom-client's Gauge fits. */
export interface ParkedGauge {
  set(labels: { consumer: string }, value: number): void;
}

/**
 * Sets the parked-events gauge of these consumers from their schemas' parked_events (rows not replayed), so
 * it shows what is parked now, whichever process parked or replayed it (`npm run audit -- parked --replay`).
 */
export async function refreshParkedGauge(
  pool: Pool,
  gauge: ParkedGauge,
  consumers: readonly Pick<EventConsumer, 'name' | 'schema'>[],
): Promise<void> {
  const schemas = [...new Set(consumers.map((c) => c.schema))];
  for (const schema of schemas) {
    const { rows } = await pool.query<{ consumer: string; n: number }>(
      `SELECT consumer, count(*)::int AS n FROM ${schemaIdentifier(schema)}.parked_events
        WHERE replayed_at IS NULL GROUP BY consumer`,
    );
    const counts = new Map(rows.map((r) => [r.consumer, r.n]));
    for (const c of consumers.filter((c) => c.schema === schema))
      gauge.set({ consumer: c.name }, counts.get(c.name) ?? 0);
  }
}
