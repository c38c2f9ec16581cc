import { SignedIds } from '../auth/signed-ids.ts';

/**
 * The buyer's link to an order's confirmation page (owned by the order service, which reads it; checkout signs it
 * into its verify answer, the one answer only the paying browser gets). The token is the provider order's id signed
 * with a key derived from JWT_SECRET (SignedIds): it exists as soon as the payment is verified, before the order has
 * a number (verify's 202 at a sale's peak), cannot be guessed from an order number, and needs no table. Changing
 * JWT_SECRET voids every link given out.
 */
export const orderConfirmationTokens = (jwtSecret: string): SignedIds =>
  new SignedIds(jwtSecret, 'order-confirmation-link', /^[A-Za-z0-9_-]{1,100}$/);
