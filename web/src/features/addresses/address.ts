import { z } from 'zod';
import { parseEach } from '@/types/api';
import { addressFields } from '@/types/address';
import { optionalText, phoneProblem } from '@/types/fields';

// A saved address (seed 000 "Address") and the rules of its form.

export const addressSchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  label: optionalText,
  ...addressFields,
  isDefault: z
    .boolean()
    .nullish()
    .transform((value) => value ?? false),
});
export type Address = z.infer<typeof addressSchema>;

/** Parses an address list, dropping entries that cannot be shown. */
export function parseAddressList(raw: unknown): Address[] {
  return parseEach(addressSchema, raw);
}

export const DEFAULT_ADDRESS_LABEL = 'Home';

export type AddressFields = Omit<Address, 'id' | 'isDefault'>;
export type AddressInput = AddressFields & { isDefault: boolean };

export const emptyAddress = (): AddressInput => ({
  label: DEFAULT_ADDRESS_LABEL,
  name: '',
  phone: '',
  email: '',
  addressLine1: '',
  addressLine2: '',
  city: '',
  state: '',
  zipCode: '',
  isDefault: false,
});

export type AddressErrors = Partial<Record<'label' | 'name' | 'phone' | 'addressLine1', string>>;

/** Seed: label, name, phone and address line 1 are required. */
export function validateAddress(values: AddressInput): AddressErrors {
  const errors: AddressErrors = {};
  if (!values.label.trim()) errors.label = 'Label is required';
  if (!values.name.trim()) errors.name = 'Name is required';
  const phone = phoneProblem(values.phone);
  if (phone) errors.phone = phone;
  if (!values.addressLine1.trim()) errors.addressLine1 = 'Address line 1 is required';
  return errors;
}

/** The values sent to the API: text trimmed. */
export function addressPayload(values: AddressInput): AddressInput {
  const trimmed = Object.fromEntries(
    Object.entries(values).map(([key, value]) => [key, typeof value === 'string' ? value.trim() : value]),
  ) as AddressInput;
  return trimmed;
}

/** One line of an address for display: the parts that are filled, comma-separated. */
export function addressLines(address: AddressFields): string {
  const place = [address.city, address.state].filter(Boolean).join(', ');
  return [address.addressLine1, address.addressLine2, [place, address.zipCode].filter(Boolean).join(' - ')]
    .filter(Boolean)
    .join(', ');
}
