/** The slice of a pino logger the bus uses; a pino Logger (or a child of one) fits it as is. */
export interface BusLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

const ignore = (): void => undefined;

/** A logger that drops everything (the default when none is given). */
export const silentLogger: BusLogger = Object.freeze({ debug: ignore, info: ignore, warn: ignore, error: ignore });
