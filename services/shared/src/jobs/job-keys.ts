/** jobId of the one self-rescheduling row that repeat() keeps per name; schedule() refuses it. */
export const REPEAT_JOB_ID = '@repeat';

// BullMQ queue names cannot contain ':'; one rule for both schedulers keeps a name portable between them.
const JOB_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const MAX_EVERY_MS = 2 ** 31 - 1;

export function assertJobName(name: string): void {
  if (!JOB_NAME.test(name)) {
    throw new RangeError(
      `Job name "${name}" must be 1-100 letters, digits, '.', '_' or '-', starting with a letter or digit`,
    );
  }
}

export function assertJobId(jobId: string): void {
  if (jobId.length === 0 || jobId.length > 500) throw new RangeError('jobId must be 1-500 characters');
  if (jobId === REPEAT_JOB_ID) throw new RangeError(`jobId "${REPEAT_JOB_ID}" is reserved for repeat()`);
}

export function assertDelayMs(delayMs: number): void {
  if (!Number.isFinite(delayMs) || delayMs < 0) throw new RangeError(`delayMs must be >= 0, got ${delayMs}`);
}

export function assertEveryMs(everyMs: number): void {
  if (!Number.isInteger(everyMs) || everyMs < 1 || everyMs > MAX_EVERY_MS) {
    throw new RangeError(`everyMs must be an integer from 1 to ${MAX_EVERY_MS}, got ${everyMs}`);
  }
}
