import { UnavailableError } from '../errors/errors.ts';
import type { ServiceContext } from './service.ts';

/** A stream a command wrote to, and the version it left the stream at. */
export interface StreamWritten {
  streamId: string;
  version: number;
}

/** How long an HTTP answer waits for its own write to become readable. */
export const READ_YOUR_WRITES_TIMEOUT_MS = 5000;

/**
 * Read-your-writes for an HTTP answer: resolves once `projection` (a consumer of `schema`) has applied
 * each of `written`, in turn; when one is not readable within READ_YOUR_WRITES_TIMEOUT_MS, refuses with a
 * 503 saying `notYetReadable` (the write stands: a retry or a refresh reads it).
 */
export async function awaitReadable(
  ctx: Pick<ServiceContext, 'waitForProjection'>,
  projection: { schema: string; consumer: string },
  written: StreamWritten | readonly StreamWritten[],
  notYetReadable: string,
): Promise<void> {
  for (const w of 'streamId' in written ? [written] : written) {
    const ok = await ctx.waitForProjection({
      ...projection,
      streamId: w.streamId,
      version: w.version,
      timeoutMs: READ_YOUR_WRITES_TIMEOUT_MS,
    });
    if (!ok) throw new UnavailableError(notYetReadable);
  }
}
