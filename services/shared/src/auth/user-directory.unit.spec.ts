import { describe, expect, it } from 'vitest';
import { BoundUserDirectory, type UserDirectory } from './user-directory.ts';

/** A directory over a map the test changes, counting its look-ups. */
function source(users: Map<string, boolean>) {
  const counted = { lookups: 0 };
  const directory: UserDirectory = {
    async find(userId) {
      counted.lookups += 1;
      const isAdmin = users.get(userId);
      return isAdmin === undefined ? null : { isAdmin };
    },
  };
  return { directory, counted };
}

describe('BoundUserDirectory: the user check behind every token', () => {
  it('fails every check until a directory is bound: a token is never trusted unchecked', async () => {
    await expect(new BoundUserDirectory().find('u1')).rejects.toThrow(/No user directory is bound/);
  });

  it('remembers a found user for ttlMs, then asks again (a demotion shows within the ttl)', async () => {
    let now = 0;
    const users = new Map([['u1', true]]);
    const { directory, counted } = source(users);
    const bound = new BoundUserDirectory({ ttlMs: 5_000, now: () => now });
    bound.bind(directory);
    expect(await bound.find('u1')).toEqual({ isAdmin: true });
    users.set('u1', false);
    now = 4_999;
    expect(await bound.find('u1')).toEqual({ isAdmin: true });
    expect(counted.lookups).toBe(1);
    now = 5_000;
    expect(await bound.find('u1')).toEqual({ isAdmin: false });
    expect(counted.lookups).toBe(2);
  });

  it('looks again for a token of a newer session than it remembers, and forgets a user on request', async () => {
    let generation = 0;
    let lookups = 0;
    const bound = new BoundUserDirectory({ ttlMs: 5_000, now: () => 0 });
    bound.bind({
      async find() {
        lookups += 1;
        return { isAdmin: false, sessionVersion: generation };
      },
    });
    expect(await bound.find('u1', 0)).toEqual({ isAdmin: false, sessionVersion: 0 });
    generation = 1; // the password was reset in another process
    // An old token still meets the remembered generation (within the ttl); a token of the new session looks again.
    expect(await bound.find('u1', 0)).toEqual({ isAdmin: false, sessionVersion: 0 });
    expect(await bound.find('u1', 1)).toEqual({ isAdmin: false, sessionVersion: 1 });
    expect(lookups).toBe(2);
    generation = 2; // reset here: forgotten, so the next check asks
    bound.forget('u1');
    expect(await bound.find('u1', 0)).toEqual({ isAdmin: false, sessionVersion: 2 });
    expect(lookups).toBe(3);
  });

  it('never remembers a user who is gone, and a deleted user is gone once the ttl passes', async () => {
    let now = 0;
    const users = new Map([['u1', false]]);
    const { directory, counted } = source(users);
    const bound = new BoundUserDirectory({ ttlMs: 5_000, now: () => now });
    bound.bind(directory);
    expect(await bound.find('ghost')).toBeNull();
    expect(await bound.find('ghost')).toBeNull();
    expect(counted.lookups).toBe(2);
    expect(await bound.find('u1')).toEqual({ isAdmin: false });
    users.delete('u1');
    now = 5_000;
    expect(await bound.find('u1')).toBeNull();
  });

  it('shares one look-up among concurrent checks of a user, and forgets what it knew when bound anew', async () => {
    const { directory, counted } = source(new Map([['u1', true]]));
    const bound = new BoundUserDirectory();
    bound.bind(directory);
    await Promise.all([bound.find('u1'), bound.find('u1'), bound.find('u1')]);
    expect(counted.lookups).toBe(1);
    const other = source(new Map());
    bound.bind(other.directory);
    expect(await bound.find('u1')).toBeNull();
  });
});
