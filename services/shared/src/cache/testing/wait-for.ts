/**
 * Polls `probe` until it returns something truthy and returns that; fails after `timeoutMs` with `message`.
 * Tests wait for a condition with a deadline instead of sleeping a fixed time.
 */
export async function waitFor<T>(
  probe: () => T | Promise<T>,
  {
    timeoutMs = 5_000,
    intervalMs = 5,
    message = 'condition',
  }: { timeoutMs?: number; intervalMs?: number; message?: string } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() >= deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${message}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
