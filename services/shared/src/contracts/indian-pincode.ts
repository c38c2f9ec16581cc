/**
 * The one rule for the pincode a shopper types at checkout: an Indian PIN code, 6 digits, the first not 0
 * ('560038'). Shiprocket refuses a shipment to any other (422 'The billing pincode must be 6 digits.'), so an order
 * paid with one could never ship. Pure: checkout's create-order checks it and the web app before sending.
 */

export const INDIAN_PINCODE_MESSAGE = 'Please enter a valid 6-digit pincode';

const INDIAN_PINCODE = /^[1-9]\d{5}$/;

/** Whether `text` is an Indian PIN code as the rule above reads it (surrounding spaces ignored). */
export function isIndianPincode(text: string): boolean {
  return INDIAN_PINCODE.test(text.trim());
}
