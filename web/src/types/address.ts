import { optionalText } from './fields';

// A saved address as the API sends it (seed 000 "Address"): the fields the address book and checkout both
// read, in one place. Each feature's schema spreads these and adds its id, label and default flag rules.

export const addressFields = {
  name: optionalText,
  phone: optionalText,
  email: optionalText,
  addressLine1: optionalText,
  addressLine2: optionalText,
  city: optionalText,
  state: optionalText,
  zipCode: optionalText,
};
