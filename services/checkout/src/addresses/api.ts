import { z } from 'zod';
import { UnavailableError } from '@shop/shared/errors/errors';
import { EMAIL_MESSAGE, isEmailAddress } from '@shop/shared/contracts/email-address';
import { INDIAN_PINCODE_MESSAGE, isIndianPincode } from '@shop/shared/contracts/indian-pincode';
import { indianPhoneInput } from '@shop/shared/http/phone-input';
import { routeOf } from '@shop/shared/http/route-table';
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
const email = optional('Email', 200).refine((v) => v === '' || isEmailAddress(v), EMAIL_MESSAGE);

const fields = {
  label: required('Label', 50),
  name: required('Name', 100),
  phone: indianPhoneInput('Phone'),
  email,
  addressLine1: required('Address line 1', 200),
  addressLine2: optional('Address line 2', 200),
  city: optional('City', 100),
  state: optional('State', 100),
  // Empty, or a PIN code a courier ships to: checkout refuses any other, so one saved would fail there.
  zipCode: optional('Zip code', 20).refine((v) => v === '' || isIndianPincode(v), INDIAN_PINCODE_MESSAGE),
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

/** What the address routes use. */
export type AddressesPorts = Pick<ServiceContext, 'pool' | 'waitForProjection'> & { addresses: Addresses };

const route = routeOf<AddressesPorts>('checkout');

const NOT_YET_READABLE = 'Address saved, but not yet readable; refresh in a moment';
const waitForBook = async (ctx: AddressesPorts, userId: string, version: number) => {
  if (version === 0) return;
  await awaitReadable(
    ctx,
    { schema: 'checkout', consumer: ADDRESSES_PROJECTION },
    { streamId: addressBookStreamId(userId), version },
    NOT_YET_READABLE,
  );
};
const readSaved = async (ctx: AddressesPorts, userId: string, id: string) => {
  const address = await findAddress(ctx.pool, userId, id);
  if (!address) throw new UnavailableError(NOT_YET_READABLE);
  return address;
};

/** Routes of the logged-in user's saved addresses: /api/addresses/... */
export const ADDRESS_ROUTES = [
  route({
    method: 'get',
    path: '/api/addresses',
    auth: 'user',
    summary: "The signed-in user's saved addresses",
    owned: true,
    responses: { 200: 'List of addresses', 401: 'Not signed in' },
    handler: (ctx) => async (req, res) => {
      res.json(await listAddresses(ctx.pool, req.user!.id));
    },
  }),
  route({
    method: 'post',
    path: '/api/addresses',
    auth: 'user',
    summary: 'Save an address (the first is the default)',
    owned: true,
    body: NewAddressBody,
    responses: {
      201: '{message, ...address}',
      400: 'Bad input (names the field); at most the allowed number of addresses',
      401: 'Not signed in',
      503: 'Saved but not yet readable',
    },
    handler:
      (ctx) =>
      async (req, res, { body: { isDefault: makeDefault, ...body } }) => {
        const userId = req.user!.id;
        const { addressId, version } = await ctx.addresses.add(userId, body, { makeDefault });
        await waitForBook(ctx, userId, version);
        res.status(201).json({ message: 'Address added', ...(await readSaved(ctx, userId, addressId)) });
      },
  }),
  route({
    method: 'put',
    path: '/api/addresses/:id',
    auth: 'user',
    summary: 'Change one of your saved addresses',
    owned: true,
    params: IdParam,
    body: AddressChangesBody,
    responses: {
      200: '{message, ...address}',
      400: 'Bad input (names the field)',
      401: 'Not signed in',
      404: 'Address not found',
      503: 'Saved but not yet readable',
    },
    handler:
      (ctx) =>
      async (req, res, { params: { id }, body: { isDefault: makeDefault, ...changes } }) => {
        const userId = req.user!.id;
        await waitForBook(ctx, userId, await ctx.addresses.update(userId, id, changes, { makeDefault }));
        res.json({ message: 'Address updated', ...(await readSaved(ctx, userId, id)) });
      },
  }),
  route({
    method: 'delete',
    path: '/api/addresses/:id',
    auth: 'user',
    summary: 'Delete one of your saved addresses',
    owned: true,
    params: IdParam,
    responses: {
      200: '{message, id}',
      400: 'Bad address id',
      401: 'Not signed in',
      404: 'Address not found',
      503: 'Deleted but not yet readable',
    },
    handler:
      (ctx) =>
      async (req, res, { params: { id } }) => {
        const userId = req.user!.id;
        await waitForBook(ctx, userId, await ctx.addresses.remove(userId, id));
        res.json({ message: 'Address deleted', id });
      },
  }),
];
