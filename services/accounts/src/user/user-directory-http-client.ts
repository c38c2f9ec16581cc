import type { DirectoryUser, UserDirectory } from '@shop/shared/auth/user-directory';
import { USER_CHECK_PATH } from './user-directory-api.ts';

/**
 * The user check over HTTP to the accounts service (distributed mode). Anything but a well-formed answer
 * throws: the request being authenticated is then answered 503, never let through unchecked.
 */
export class UserDirectoryHttpClient implements UserDirectory {
  constructor(
    private readonly baseUrl: string,
    /** Signed afresh for each look-up: a process outlives any one token. */
    private readonly serviceToken: () => string,
  ) {}

  async find(userId: string): Promise<DirectoryUser | null> {
    const res = await fetch(`${this.baseUrl}${USER_CHECK_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${this.serviceToken()}` },
      body: JSON.stringify({ userId }),
      signal: AbortSignal.timeout(5_000),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`The accounts service answered the user check ${res.status}: ${text.slice(0, 200)}`);
    const { user } = JSON.parse(text) as { user?: { isAdmin?: unknown; sessionVersion?: unknown } | null };
    if (user === null) return null;
    if (user && typeof user.isAdmin === 'boolean')
      return {
        isAdmin: user.isAdmin,
        sessionVersion: typeof user.sessionVersion === 'number' ? user.sessionVersion : 0,
      };
    throw new Error('The accounts service answered the user check without a user');
  }
}
