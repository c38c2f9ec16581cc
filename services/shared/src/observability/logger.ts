import { pino, type Logger } from 'pino';

/** Structured JSON logger; `service` tags every line. Secrets never reach it (see redact list). */
export function createLogger(service: string, level = 'info'): Logger {
  return pino({
    level,
    base: { service },
    redact: {
      paths: ['req.headers.authorization', 'password', '*.password', 'passwordHash', '*.passwordHash'],
      censor: '[redacted]',
    },
  });
}
export type { Logger } from 'pino';
