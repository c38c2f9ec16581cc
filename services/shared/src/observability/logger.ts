import { pino, type DestinationStream, type Logger } from 'pino';

/** Query parameters that carry a credential: a token or a push-stream ticket. */
const CREDENTIAL_IN_QUERY = /([?&](?:access_token|ticket|token)=)[^&#]*/gi;

/** `url` with the values of credential-carrying query parameters (access_token, ticket, token) replaced. */
export const redactUrl = (url: string): string => url.replace(CREDENTIAL_IN_QUERY, '$1[redacted]');

/**
 * Structured JSON logger; `service` tags every line. Secrets never reach it: the redact list (passwords,
 * tokens, Authorization and Cookie headers), and every logged `url` goes through redactUrl. `destination`:
 * where lines go (default stdout).
 */
export function createLogger(service: string, level = 'info', destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service },
      redact: {
        paths: [
          'password',
          '*.password',
          'passwordHash',
          '*.passwordHash',
          'token',
          '*.token',
          'ticket',
          '*.ticket',
          'access_token',
          '*.access_token',
          'authorization',
          'headers.authorization',
          'headers.cookie',
          '*.headers.authorization',
          '*.headers.cookie',
        ],
        censor: '[redacted]',
      },
      formatters: {
        log: (line) => (typeof line.url === 'string' ? { ...line, url: redactUrl(line.url) } : line),
      },
    },
    destination,
  );
}
export type { Logger } from 'pino';
