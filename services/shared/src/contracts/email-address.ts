import { z } from 'zod';

/**
 * The one rule for an e-mail address a shopper types (sign-up, checkout, saved addresses): zod's e-mail check,
 * surrounding spaces ignored. The services check it in their APIs and the web app before sending.
 */

export const EMAIL_MESSAGE = 'Please enter a valid email';

const EMAIL = z.email();

/** Whether `text` is an e-mail address as the rule above reads it. */
export function isEmailAddress(text: string): boolean {
  return EMAIL.safeParse(text.trim()).success;
}
