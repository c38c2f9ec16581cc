import { DEFAULT_ADDRESS_LABEL, type Address } from '@/types/address';
import { phoneProblem } from '@/types/fields';
import { INDIAN_PINCODE_MESSAGE, isIndianPincode } from '@shop/shared/contracts/indian-pincode';

// The rules of the saved-address form (the address itself: types/address).

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

export type AddressErrors = Partial<Record<'label' | 'name' | 'phone' | 'addressLine1' | 'zipCode', string>>;

/**
 * Seed: label, name, phone and address line 1 are required. A PIN code may be left empty, but one given must be
 * one a courier ships to (checkout refuses any other).
 */
export function validateAddress(values: AddressInput): AddressErrors {
  const errors: AddressErrors = {};
  if (!values.label.trim()) errors.label = 'Label is required';
  if (!values.name.trim()) errors.name = 'Name is required';
  const phone = phoneProblem(values.phone);
  if (phone) errors.phone = phone;
  if (!values.addressLine1.trim()) errors.addressLine1 = 'Address line 1 is required';
  if (values.zipCode.trim() && !isIndianPincode(values.zipCode)) errors.zipCode = INDIAN_PINCODE_MESSAGE;
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
