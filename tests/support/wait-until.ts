/**
 * Waits for a condition with a deadline (never a fixed sleep): re-checks `check` until it returns a truthy
 * value, which it returns; fails after `timeoutMs` naming `what`. The one such helper of the test suites.
 */
export async function waitUntil<T>(
  check: () => T | Promise<T>,
  what: string,
  timeoutMs = 15_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    // yield to the event loop (and the I/O under test) before checking again
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Lets `n` turns of the event loop pass (each after the I/O callbacks then due): for asserting that something
 * did NOT happen in reaction to a synchronous trigger, where there is no condition to wait for.
 */
export async function eventLoopTurns(n = 10): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
