import { Router } from 'express';
import { z } from 'zod';
import { requireAuth } from '@shop/shared/auth/tokens';
import { UnavailableError } from '@shop/shared/errors/errors';
import { indianPhoneInput } from '@shop/shared/http/phone-input';
import { parseInput } from '@shop/shared/http/validation';
import { awaitReadable } from '@shop/shared/runtime/read-your-writes';
import type { ServiceContext } from '@shop/shared/runtime/service';
import { booleanInput } from '@shop/shared/http/amount-input';
import type { Addresses } from './addresses.ts';
import { addressBookStreamId, DEFAULT_ADDRESS_LABEL } from './address-book/events.ts';
import { ADDRESSES_PROJECTION } from './read-models/addresses/addresses-projection.ts';
import { findAddress, listAddresses } from './read-models/addresses/addresses-queries.ts';

const required = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} can have at most ${max} characters`);
// Optional text: absent or null reads as empty.
const optional = (label: string, max: number) =>
  z.preprocess(
    (v) => (v === null ? '' : v),
    z
      .string({ error: `${label} must be text` })
      .trim()
      .max(max, `${label} can have at most ${max} characters`),
  );
const email = optional('Email', 200).refine(
  (v) => v === '' || z.email().safeParse(v).success,
  'Please enter a valid email',
);

const fields = {
  label: required('Label', 50),
  name: required('Name', 100),
  phone: indianPhoneInput('Phone'),
  email,
  addressLine1: required('Address line 1', 200),
  addressLine2: optional('Address line 2', 200),
  city: optional('City', 100),
  state: optional('State', 100),
  zipCode: optional('Zip code', 20),
};
const isDefault = booleanInput('isDefault').optional();

// A new address: label defaults to 'Home' when left out; the other required fields must be given.
export const NewAddressBody = z.object({
  ...fields,
  label: fields.label.optional().default(DEFAULT_ADDRESS_LABEL),
  email: email.optional().default(''),
  addressLine2: fields.addressLine2.optional().default(''),
  city: fields.city.optional().default(''),
  state: fields.state.optional().default(''),
  zipCode: fields.zipCode.optional().default(''),
  isDefault,
});
// A change: fields left out keep their value; a required field sent blank is refused.
export const AddressChangesBody = z.object({
  label: fields.label.optional(),
  name: fields.name.optional(),
  phone: fields.phone.optional(),
  email: fields.email.optional(),
  addressLine1: fields.addressLine1.optional(),
  addressLine2: fields.addressLine2.optional(),
  city: fields.city.optional(),
  state: fields.state.optional(),
  zipCode: fields.zipCode.optional(),
  isDefault,
});
export const IdParam = z.object({ id: z.string().regex(/^[\w-]{1,64}$/, 'Bad address id') });

/** Routes of the logged-in user's saved addresses: /api/addresses/... */
export function addressesRouter(ctx: ServiceContext, addresses: Addresses): Router {
  const r = Router();

  const NOT_YET_READABLE = 'Address saved, but not yet readable; refresh in a moment';
  const waitForBook = async (userId: string, version: number) => {
    if (version === 0) return;
    await awaitReadable(
      ctx,
      { schema: 'checkout', consumer: ADDRESSES_PROJECTION },
      { streamId: addressBookStreamId(userId), version },
      NOT_YET_READABLE,
    );
  };
  const readSaved = async (userId: string, id: string) => {
    const address = await findAddress(ctx.pool, userId, id);
    if (!address) throw new UnavailableError(NOT_YET_READABLE);
    return address;
  };

  r.get('/api/addresses', requireAuth, async (req, res) => {
    res.json(await listAddresses(ctx.pool, req.user!.id));
  });

  r.post('/api/addresses', requireAuth, async (req, res) => {
    const { isDefault: makeDefault, ...body } = parseInput(NewAddressBody, req.body ?? {});
    const userId = req.user!.id;
    const { addressId, version } = await addresses.add(userId, body, { makeDefault });
    await waitForBook(userId, version);
    res.status(201).json({ message: 'Address added', ...(await readSaved(userId, addressId)) });
  });

  r.put('/api/addresses/:id', requireAuth, async (req, res) => {
    const { id } = parseInput(IdParam, req.params);
    const { isDefault: makeDefault, ...changes } = parseInput(AddressChangesBody, req.body ?? {});
    const userId = req.user!.id;
    await waitForBook(userId, await addresses.update(userId, id, changes, { makeDefault }));
    res.json({ message: 'Address updated', ...(await readSaved(userId, id)) });
  });

  r.delete('/api/addresses/:id', requireAuth, async (req, res) => {
    const { id } = parseInput(IdParam, req.params);
    const userId = req.user!.id;
    await waitForBook(userId, await addresses.remove(userId, id));
    res.json({ message: 'Address deleted', id });
  });

  return r;
}
