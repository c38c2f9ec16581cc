/** An error that carries its kind; the HTTP error middleware maps kind to status in one place. */
export type ErrorKind =
  'validation' | 'unauthorized' | 'forbidden' | 'not_found' | 'conflict' | 'too_many_requests' | 'unavailable';

export class AppError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
  }
  /** Whether retrying the same operation later may succeed. */
  get retriable(): boolean {
    return this.kind === 'unavailable' || this.kind === 'conflict';
  }
}

export class ValidationError extends AppError {
  constructor(message: string, details?: unknown) {
    super('validation', message, details);
  }
}
export class UnauthorizedError extends AppError {
  constructor(message = 'Authentication required') {
    super('unauthorized', message);
  }
}
export class ForbiddenError extends AppError {
  constructor(message = 'Admin access required') {
    super('forbidden', message);
  }
}
export class NotFoundError extends AppError {
  constructor(message = 'Not found') {
    super('not_found', message);
  }
}
export class ConflictError extends AppError {
  constructor(message: string, details?: unknown) {
    super('conflict', message, details);
  }
}
/** A refusal the shopper sees with a title and a message (e.g. 'Size not available'). */
export class RefusedError extends ConflictError {
  constructor(
    readonly title: string,
    message: string,
  ) {
    super(message);
  }
}
/** The caller has too much in flight or asked too often; retrying at once will not help (429). */
export class TooManyRequestsError extends AppError {
  constructor(message: string) {
    super('too_many_requests', message);
  }
}
export class UnavailableError extends AppError {
  constructor(message: string, details?: unknown) {
    super('unavailable', message, details);
  }
}

export const httpStatusOf: Record<ErrorKind, number> = {
  validation: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_many_requests: 429,
  unavailable: 503,
};
