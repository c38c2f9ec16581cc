import { describe, expect, it } from 'vitest';
import { waitUntil } from '@shop/test-support/wait-until';
import { PendingWork, pendingWorkRetryAt } from './pending-work.ts';

/** A runDue whose runs each wait for the test to let them finish, answering how many they "completed". */
function gatedRuns() {
  const gates: Array<(done: number) => void> = [];
  return {
    gates,
    runDue: () => new Promise<number>((resolve) => gates.push(resolve)),
  };
}

describe('PendingWork', () => {
  it('runs one run at a time; a kick or run during a run makes it run once more, and callers share the count', async () => {
    const { gates, runDue } = gatedRuns();
    const errors: unknown[] = [];
    const work = new PendingWork(runDue, (err) => errors.push(err));

    const first = work.run();
    expect(gates).toHaveLength(1);
    const second = work.run(); // joins the run under way
    work.kick();
    work.kick();
    expect(gates).toHaveLength(1); // no second runDue while the first is at work

    gates[0]!(2);
    await waitUntil(() => gates.length === 2, 'the second run'); // asked again once: the kicks and run() collapse into one more
    gates[1]!(3);
    expect(await first).toBe(5);
    expect(await second).toBe(5);
    expect(gates).toHaveLength(2);

    // Idle again: the next kick starts a fresh run.
    work.kick();
    expect(gates).toHaveLength(3);
    gates[2]!(0);
    expect(errors).toEqual([]);
  });

  it('reports a failed kicked run to onError, and is ready to run again after it', async () => {
    let fail = true;
    const errors: unknown[] = [];
    let runs = 0;
    const work = new PendingWork(
      async () => {
        runs += 1;
        if (fail) throw new Error('catalog unreachable');
        return 1;
      },
      (err) => errors.push(err),
    );
    work.kick();
    await waitUntil(() => errors.length === 1, 'the failure reported');
    expect(String(errors[0])).toMatch(/catalog unreachable/);
    fail = false;
    expect(await work.run()).toBe(1);
    expect(runs).toBe(2);
  });

  it('waits 1 s after the first failure, doubling, at most 5 minutes', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const waits = [0, 1, 2, 3, 8, 9, 50, 5000].map(
      (attempts) => pendingWorkRetryAt(now, attempts).getTime() - now.getTime(),
    );
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 256_000, 300_000, 300_000, 300_000]);
  });
});
