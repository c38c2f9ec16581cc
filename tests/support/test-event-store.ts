import { afterAll, beforeAll } from 'vitest';
import { PostgresEventStore } from '@shop/shared/eventstore/postgres-event-store';
import { createTestDatabase, type TestDatabase } from './test-database.ts';

/** What testEventStore made: the test database and the event store on it. */
export interface TestEventLog {
  readonly db: TestDatabase;
  readonly store: PostgresEventStore;
}

/**
 * The event store of `schema` on a fresh, migrated test database, for the tests of a file (or of the
 * describe block it is called in): made in a beforeAll, so set-up hooks declared after this call can use
 * it; the database dropped in an afterAll that runs after theirs. Read `db` and `store` in hooks and tests.
 */
export function testEventStore(schema: string): TestEventLog {
  let made: { db: TestDatabase; store: PostgresEventStore } | undefined;
  beforeAll(async () => {
    const db = await createTestDatabase();
    made = { db, store: new PostgresEventStore(db.pool, schema) };
  });
  afterAll(() => made?.db.drop());
  const get = () => {
    if (!made) throw new Error('The test event store is made in beforeAll: read it in hooks and tests');
    return made;
  };
  return {
    get db() {
      return get().db;
    },
    get store() {
      return get().store;
    },
  };
}
