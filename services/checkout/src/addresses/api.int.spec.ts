import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS } from '@shop/test-support/fixtures';
import { startCheckoutTestHost, type CheckoutTestHost } from '../testing/checkout-test-host.ts';
import { createAddresses } from './index.ts';
import type { AddressView as Address } from './read-models/addresses/addresses-queries.ts';

let host: CheckoutTestHost<ReturnType<typeof createAddresses>>;
let asha: string;
let ravi: string;
beforeAll(async () => {
  host = await startCheckoutTestHost(createAddresses);
  asha = (await host.signUp('Asha', 'asha@example.in')).token;
  ravi = (await host.signUp('Ravi', 'ravi@example.in')).token;
});
afterAll(() => host.stop());

const home = ADDRESS;
const add = (token: string, body: unknown) =>
  host.api<Address & { message: string }>('POST', '/api/addresses', { token, body });
const book = async (token: string) => (await host.api<Address[]>('GET', '/api/addresses', { token })).body;

describe('addresses API', () => {
  it('needs a login for every route', async () => {
    expect((await host.api('GET', '/api/addresses')).status).toBe(401);
    expect((await host.api('POST', '/api/addresses', { body: home })).status).toBe(401);
    expect((await host.api('PUT', '/api/addresses/x', { body: home })).status).toBe(401);
    expect((await host.api('DELETE', '/api/addresses/x')).status).toBe(401);
  });

  it("adds the first address as the default, labelled 'Home' when no label is given, and lists it at once", async () => {
    expect(await book(asha)).toEqual([]);
    const r = await add(asha, home);
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ message: 'Address added', id: r.body.id, label: 'Home', ...home, isDefault: true });
    expect(await book(asha)).toEqual([{ id: r.body.id, label: 'Home', ...home, isDefault: true }]);
  });

  it('adds further addresses without moving the default, unless asked', async () => {
    const office = await add(asha, { ...home, label: 'Office', addressLine1: '1 Residency Road', zipCode: '' });
    expect(office.body).toMatchObject({ label: 'Office', isDefault: false, zipCode: '' });
    const parents = await add(asha, { ...home, label: 'Parents', city: 'Mysuru', isDefault: true });
    expect(parents.body.isDefault).toBe(true);
    const list = await book(asha);
    expect(list.map((a) => [a.label, a.isDefault])).toEqual([
      ['Parents', true],
      ['Home', false],
      ['Office', false],
    ]);
  });

  it('refuses missing required fields with clear messages', async () => {
    const refused = async (body: unknown, message: string) =>
      expect(await add(asha, body)).toMatchObject({ status: 400, body: { message } });
    await refused({ ...home, name: ' ' }, 'Name is required');
    await refused({ ...home, phone: undefined }, 'Phone is required');
    await refused({ ...home, phone: '12' }, 'Please enter a valid 10-digit mobile number');
    await refused({ ...home, addressLine1: '' }, 'Address line 1 is required');
    await refused({ ...home, label: '' }, 'Label is required');
    await refused({ ...home, email: 'not-an-email' }, 'Please enter a valid email');
    // A PIN code checkout would refuse is refused when saved, not first at checkout.
    await refused({ ...home, zipCode: '12' }, 'Please enter a valid 6-digit pincode');
    await refused({ ...home, zipCode: '056001' }, 'Please enter a valid 6-digit pincode');
    expect(await add(asha, {})).toMatchObject({
      status: 400,
      body: { message: 'Name is required; Phone is required; Address line 1 is required' },
    });
    expect((await book(asha)).length).toBe(3);
  });

  it('updates an address: given fields change, others keep their value; it can become the default', async () => {
    const office = (await book(asha)).find((a) => a.label === 'Office')!;
    const r = await host.api<Address & { message: string }>('PUT', `/api/addresses/${office.id}`, {
      token: asha,
      body: { addressLine2: 'Floor 4', zipCode: '560025', isDefault: true },
    });
    expect(r).toMatchObject({
      status: 200,
      body: {
        message: 'Address updated',
        label: 'Office',
        addressLine2: 'Floor 4',
        zipCode: '560025',
        isDefault: true,
      },
    });
    expect((await book(asha)).filter((a) => a.isDefault).map((a) => a.label)).toEqual(['Office']);
    expect(await host.api('PUT', `/api/addresses/${office.id}`, { token: asha, body: { name: '' } })).toMatchObject({
      status: 400,
      body: { message: 'Name is required' },
    });
  });

  it("keeps each user's book private: another user's address answers 404 and is left alone", async () => {
    const office = (await book(asha)).find((a) => a.label === 'Office')!;
    expect(await book(ravi)).toEqual([]);
    expect(
      await host.api('PUT', `/api/addresses/${office.id}`, { token: ravi, body: { label: 'Mine now' } }),
    ).toMatchObject({ status: 404, body: { message: 'Address not found' } });
    expect(await host.api('DELETE', `/api/addresses/${office.id}`, { token: ravi })).toMatchObject({
      status: 404,
      body: { message: 'Address not found' },
    });
    expect((await book(asha)).find((a) => a.id === office.id)).toMatchObject({ label: 'Office', isDefault: true });
  });

  it('deletes an address; deleting the default makes the oldest remaining one the default', async () => {
    const office = (await book(asha)).find((a) => a.label === 'Office')!;
    expect(await host.api('DELETE', `/api/addresses/${office.id}`, { token: asha })).toMatchObject({
      status: 200,
      body: { message: 'Address deleted', id: office.id },
    });
    expect((await book(asha)).map((a) => [a.label, a.isDefault])).toEqual([
      ['Home', true],
      ['Parents', false],
    ]);
    expect((await host.api('DELETE', `/api/addresses/${office.id}`, { token: asha })).status).toBe(404);
  });

  it('gives exactly one default when a new user adds addresses concurrently', async () => {
    const meera = (await host.signUp('Meera', 'meera@example.in')).token;
    const results = await Promise.all(['A', 'B', 'C', 'D', 'E'].map((label) => add(meera, { ...home, label })));
    expect(results.every((r) => r.status === 201)).toBe(true);
    const list = await book(meera);
    expect(list).toHaveLength(5);
    expect(list.filter((a) => a.isDefault)).toHaveLength(1);
  });
});
