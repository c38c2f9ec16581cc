import { z } from 'zod';
import { parseEach } from './api';
import { optionalText } from './fields';

// A saved address as GET /addresses sends it (seed 000 "Address"), read the same way by the address book and
// checkout's address picker.

const addressFields = {
  name: optionalText,
  phone: optionalText,
  email: optionalText,
  addressLine1: optionalText,
  addressLine2: optionalText,
  city: optionalText,
  state: optionalText,
  zipCode: optionalText,
};

/** The label a new address starts with, and how checkout names one saved without a label. */
export const DEFAULT_ADDRESS_LABEL = 'Home';

export const addressSchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  label: optionalText,
  ...addressFields,
  isDefault: z.boolean().nullish().catch(false).transform(Boolean),
});
export type Address = z.infer<typeof addressSchema>;

/** Parses an address list, dropping entries that cannot be shown. */
export function parseAddressList(raw: unknown): Address[] {
  return parseEach(addressSchema, raw);
}
