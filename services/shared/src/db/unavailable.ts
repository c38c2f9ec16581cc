/**
 * Whether an error says the database cannot be reached right now (the server is restarting, shutting down or
 * refusing connections, or the connection was lost), rather than that the request or the code is wrong. Such
 * a request is worth retrying in a moment: it is answered 503, not 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  const code = typeof e.code === 'string' ? e.code : '';
  // SQLSTATE 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now, 53300 too_many_connections
  // (the server is full: a moment later it may not be); class 08: connection exceptions
  if (/^57P0[123]$/.test(code) || code === '53300' || /^08[0-9A-Z]{3}$/.test(code)) return true;
  if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(code)) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  return /Connection terminated|Client has encountered a connection error|Client was closed and is not queryable/.test(
    message,
  );
}
