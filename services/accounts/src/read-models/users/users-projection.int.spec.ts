import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedEvent } from '@shop/shared/eventstore/types';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import { usersProjection } from './users-projection.ts';

let position = 0n;
const event = (type: string, userId: string, version: number, data: Record<string, unknown>): RecordedEvent => ({
  globalPosition: ++position,
  transactionId: position,
  streamId: `user-${userId}`,
  streamVersion: version,
  eventId: randomUUID(),
  type,
  schemaVersion: 1,
  data: { userId, ...data },
  metadata: { occurredAt: new Date().toISOString() },
  source: 'accounts',
});
const registered = (userId: string, email: string) =>
  event('UserRegistered', userId, 1, {
    name: 'Asha',
    email,
    phone: '9876543210',
    passwordHash: 'scrypt$x',
    isAdmin: false,
    registeredAt: new Date().toISOString(),
  });
const moved = (userId: string, email: string, version: number) =>
  event('UserProfileUpdated', userId, version, {
    name: 'Asha',
    email,
    phone: '9876543210',
    dob: null,
    gender: null,
    updatedAt: new Date().toISOString(),
  });

/**
 * Found by the fuzzer on the distributed shop: a shopper moved to another address and someone registered
 * with the old one; Kafka delivered the registration first, the unique index refused it 5 times and the
 * event was parked (the register answered 503, the new account never appeared). Events of different
 * streams may arrive in any order; the projection must end as the log says.
 */
describe('accounts.users with events of different users out of log order', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  const apply = async (e: RecordedEvent) => {
    const tx = await db.pool.connect();
    try {
      await tx.query('BEGIN');
      await usersProjection.handle(e, tx);
      await tx.query('COMMIT');
    } catch (err) {
      await tx.query('ROLLBACK');
      throw err;
    } finally {
      tx.release();
    }
  };
  const emails = async (...ids: string[]) =>
    (
      await db.pool.query<{ id: string; email: string }>('SELECT id, email FROM accounts.users WHERE id = ANY($1)', [
        ids,
      ])
    ).rows.reduce<Record<string, string>>((m, r) => ({ ...m, [r.id]: r.email }), {});

  it('a registration with an address whose old holder has not moved away yet (here)', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    await apply(registered(a, 'asha@example.in'));
    // log order: a moves to asha2@, then b registers with asha@; delivered the other way round
    await apply(registered(b, 'Asha@example.in'));
    await apply(moved(a, 'asha2@example.in', 2));
    expect(await emails(a, b)).toEqual({ [a]: 'asha2@example.in', [b]: 'Asha@example.in' });
  });

  it('a move to an address whose old holder has not moved away yet', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    await apply(registered(a, 'ravi@example.in'));
    await apply(registered(b, 'meera@example.in'));
    // log order: a moves ravi@ -> ravi2@, then b moves meera@ -> ravi@; delivered b's first
    await apply(moved(b, 'ravi@example.in', 2));
    await apply(moved(a, 'ravi2@example.in', 2));
    expect(await emails(a, b)).toEqual({ [a]: 'ravi2@example.in', [b]: 'ravi@example.in' });
  });
});
