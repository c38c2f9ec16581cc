import { describe, expect, it } from 'vitest';
import { parseAddressList } from '@/types/address';
import { addressLines, addressPayload, emptyAddress, validateAddress } from './address';

describe('the address form', () => {
  it("starts with the label 'Home'", () => {
    expect(emptyAddress()).toMatchObject({ label: 'Home', isDefault: false });
  });

  it('requires label, name, phone and address line 1', () => {
    expect(validateAddress({ ...emptyAddress(), label: ' ' })).toEqual({
      label: 'Label is required',
      name: 'Name is required',
      phone: 'Phone is required',
      addressLine1: 'Address line 1 is required',
    });
    expect(
      validateAddress({ ...emptyAddress(), name: 'Asha', phone: '+919800000000', addressLine1: '12 MG Road' }),
    ).toEqual({});
    expect(validateAddress({ ...emptyAddress(), name: 'Asha', phone: '12', addressLine1: '12 MG Road' })).toEqual({
      phone: 'Please enter a valid 10-digit mobile number',
    });
  });

  it('takes an empty PIN code or one a courier ships to, and refuses any other', () => {
    const asha = { ...emptyAddress(), name: 'Asha', phone: '+919800000000', addressLine1: '12 MG Road' };
    expect(validateAddress({ ...asha, zipCode: ' 560001 ' })).toEqual({});
    for (const zipCode of ['12', '056001', '5600011', 'abcdef'])
      expect(validateAddress({ ...asha, zipCode }), zipCode).toEqual({
        zipCode: 'Please enter a valid 6-digit pincode',
      });
  });

  it('sends trimmed text', () => {
    expect(addressPayload({ ...emptyAddress(), name: '  Asha ', isDefault: true })).toMatchObject({
      name: 'Asha',
      isDefault: true,
    });
  });

  it('shows the filled parts of an address on one line', () => {
    const [address] = parseAddressList([
      {
        id: 7,
        label: 'Work',
        name: 'Asha',
        phone: '1',
        addressLine1: '12 MG Road',
        city: 'Bengaluru',
        zipCode: '560001',
      },
    ]);
    expect(address).toMatchObject({ id: '7', isDefault: false, addressLine2: '' });
    expect(addressLines(address!)).toBe('12 MG Road, Bengaluru - 560001');
  });
});
