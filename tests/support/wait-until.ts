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
