import { z } from 'zod';
import { INDIAN_PHONE_MESSAGE, isIndianMobile } from '../contracts/indian-phone.ts';

/**
 * A phone number field: required ('{label} is required'; with `blankAllowed`, '' is kept and clears it), at
 * most 20 characters, and an Indian mobile number (contracts/indian-phone: 'Please enter a valid 10-digit mobile
 * number'). Each refusal says one thing. Kept as typed, trimmed.
 */
export function indianPhoneInput(label = 'Phone', { blankAllowed = false } = {}) {
  const text = z.string({ error: `${label} is required` }).trim();
  return (blankAllowed ? text : text.min(1, `${label} is required`))
    .max(20, `${label} must be at most 20 characters`)
    .refine((v) => v === '' || v.length > 20 || isIndianMobile(v), INDIAN_PHONE_MESSAGE);
}
