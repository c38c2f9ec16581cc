/**
 * The one rule for a phone number a shopper or an admin types (sign-up, profile, checkout, saved addresses): an
 * Indian mobile number, 10 digits starting 6 to 9, optionally after +91, 91 or 0, spaces and dashes allowed
 * ('+91 98450-12345', '098450 12345'). Pure: the services check it in their APIs and the web app before sending.
 */

export const INDIAN_PHONE_MESSAGE = 'Please enter a valid 10-digit mobile number';

const INDIAN_MOBILE = /^(?:\+91|91|0)?[6-9]\d{9}$/;

/** Whether `text` is an Indian mobile number as the rule above reads it. */
export function isIndianMobile(text: string): boolean {
  return INDIAN_MOBILE.test(text.trim().replace(/[\s-]/g, ''));
}
