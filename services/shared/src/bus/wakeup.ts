/**
 * A level-triggered wake-up flag for a polling loop: notify() before wait() is not lost, and many
 * notifications between two waits collapse into one.
 */
export class Wakeup {
  private pending = false;
  private resolve: (() => void) | undefined;

  notify(): void {
    this.pending = true;
    this.resolve?.();
  }

  /** Resolves at the next (or an already pending) notification, after `ms`, or when `signal` aborts. */
  async wait(ms: number, signal?: AbortSignal): Promise<void> {
    if (this.pending || signal?.aborted) {
      this.pending = false;
      return;
    }
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.resolve = undefined;
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      signal?.addEventListener('abort', done, { once: true });
      this.resolve = done;
    });
    this.pending = false;
  }
}
