import { PostgresEventStore } from '@shop/shared/eventstore/postgres-event-store';
import { madeForTests } from './made-for-tests.ts';
import { createTestDatabase, type TestDatabase } from './test-database.ts';

/** What testEventStore made: the test database and the event store on it. */
export interface TestEventLog {
  db: TestDatabase;
  store: PostgresEventStore;
}

/**
 * The event store of `schema` on a fresh, migrated test database, for the tests of a file (or of the
 * describe block it is called in), as madeForTests shares it: made before them, the database dropped after.
 */
export function testEventStore(schema: string): Readonly<TestEventLog> {
  return madeForTests(
    'test event store',
    async () => {
      const db = await createTestDatabase();
      return { db, store: new PostgresEventStore(db.pool, schema) };
    },
    ({ db }) => db.drop(),
  );
}
