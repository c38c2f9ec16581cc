import { afterAll, beforeAll } from 'vitest';

/**
 * Something the tests of a file (or of the describe block this is called in) share: `make` runs in a
 * beforeAll, so set-up hooks declared after this call can use it, and `undo` in an afterAll that runs
 * after theirs. The answer reads the made value's fields (in hooks and tests; reading one earlier throws).
 */
export function madeForTests<T extends object>(
  what: string,
  make: () => Promise<T>,
  undo: (made: T) => Promise<unknown>,
): Readonly<T> {
  let made: T | undefined;
  beforeAll(async () => {
    made = await make();
  });
  afterAll(async () => {
    if (made) await undo(made);
  });
  return new Proxy({} as T, {
    get(_target, field) {
      if (!made) throw new Error(`The ${what} is made in beforeAll: read it in hooks and tests`);
      return Reflect.get(made, field);
    },
  });
}
