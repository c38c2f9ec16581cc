import { createHmac } from 'node:crypto';

/**
 * A secret derived from JWT_SECRET for one purpose (hex HMAC-SHA256 of the purpose): what a built-in sandbox's
 * keys and tokens are, so every process of one shop agrees on them and one purpose's value is worthless for
 * another.
 */
export const derivedSecret = (jwtSecret: string, purpose: string): string =>
  createHmac('sha256', jwtSecret).update(purpose).digest('hex');
