import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const FIELDS = [
  'addressType',
  'city',
  'countryName',
  'createdAt',
  'customerId',
  'email',
  'house',
  'id',
  'isDefault',
  'landmark',
  'name',
  'phone',
  'pincode',
  'stateName',
  'street',
  'updatedAt',
];
const home = {
  name: 'Home',
  email: 'jane@example.test',
  house: '12B',
  street: 'Baker Street',
  landmark: 'Near the park',
  city: 'London',
  stateName: 'Greater London',
  countryName: 'United Kingdom',
  pincode: 'NW1 6XE',
  phone: '+44 20 7224 3688',
  addressType: 'Work',
};

async function customer(store: TestStore, extra: object = {}) {
  const res = await t.call(store, 'POST', '/customers', { userName: `u${Math.random()}`, password: '12345678', ...extra });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}
const defaults = (list: { id: string; isDefault: boolean }[]) => list.filter((a) => a.isDefault).map((a) => a.id);

describe('addresses', () => {
  it('creates nested with every field; the first is the default whatever isDefault says', async () => {
    const store = await t.newStore();
    const customerId = await customer(store);
    const unknown = await t.call(store, 'POST', `/customers/${customerId}/addresses`, { ...home, extra: 1 });
    expect(expectError(unknown, 400, 'VALIDATION_ERROR').details.map((d) => d.field)).toEqual(['extra']);
    // `id` is a read-only name of an address: ignored, never written
    const res = await t.call(store, 'POST', `/customers/${customerId}/addresses`, { ...home, isDefault: false, id: 'x' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body.data).sort()).toEqual(FIELDS);
    expect(res.body.data).toMatchObject({ ...home, customerId, isDefault: true });
    expect(res.body.data.id).toMatch(/^[0-9a-f]{24}$/);
    const bare = await t.call(store, 'POST', `/customers/${customerId}/addresses`, {});
    expect(bare.status).toBe(201);
    expect(bare.body.data).toMatchObject({ name: null, email: null, city: null, pincode: null, addressType: 'Home', isDefault: false });
    const got = await t.call(store, 'GET', `/addresses/${res.body.data.id}`);
    expect(got.body).toEqual({ success: true, data: res.body.data });
    const list = await t.call(store, 'GET', `/customers/${customerId}/addresses`);
    expect(list.body).toEqual({ success: true, data: [bare.body.data, res.body.data] });
  });

  it('creates the address given with a new customer as its default', async () => {
    const store = await t.newStore();
    const customerId = await customer(store, { address: home });
    const list = (await t.call(store, 'GET', `/customers/${customerId}/addresses`)).body.data;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ ...home, customerId, isDefault: true });
  });

  it('keeps exactly one default: isDefault true takes it over, false hands it on', async () => {
    const store = await t.newStore();
    const customerId = await customer(store);
    const add = async (body: object) => (await t.call(store, 'POST', `/customers/${customerId}/addresses`, body)).body.data.id;
    const first = await add({ city: 'A' });
    const second = await add({ city: 'B' });
    const third = await add({ city: 'C', isDefault: true });
    const list = async () => (await t.call(store, 'GET', `/customers/${customerId}/addresses`)).body.data;
    expect(defaults(await list())).toEqual([third]);
    expect((await t.call(store, 'PATCH', `/addresses/${first}`, { isDefault: true })).body.data.isDefault).toBe(true);
    expect(defaults(await list())).toEqual([first]);
    // Giving the default up hands it to the most recent other address.
    expect((await t.call(store, 'PATCH', `/addresses/${first}`, { isDefault: false })).body.data.isDefault).toBe(false);
    expect(defaults(await list())).toEqual([third]);
    expect((await t.call(store, 'PATCH', `/addresses/${second}`, { isDefault: false })).body.data.isDefault).toBe(false);
    expect(defaults(await list())).toEqual([third]);
  });

  it('keeps the only address the default', async () => {
    const store = await t.newStore();
    const customerId = await customer(store);
    const { id } = (await t.call(store, 'POST', `/customers/${customerId}/addresses`, { city: 'A' })).body.data;
    expect((await t.call(store, 'PATCH', `/addresses/${id}`, { isDefault: false })).body.data.isDefault).toBe(true);
  });

  it('updates every AddressPayload field and round-trips a fetched record', async () => {
    const store = await t.newStore();
    const customerId = await customer(store);
    const created = (await t.call(store, 'POST', `/customers/${customerId}/addresses`, { city: 'Old' })).body.data;
    const patched = await t.call(store, 'PATCH', `/addresses/${created.id}`, { ...home, customerId: 'ffffffffffffffffffffffff' });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ ...home, id: created.id, customerId, isDefault: true, createdAt: created.createdAt });
    const cleared = await t.call(store, 'PATCH', `/addresses/${created.id}`, { landmark: null });
    expect(cleared.body.data).toMatchObject({ ...home, landmark: null });
    const roundTrip = await t.call(store, 'PATCH', `/addresses/${created.id}`, cleared.body.data);
    expect({ ...roundTrip.body.data, updatedAt: 0 }).toEqual({ ...cleared.body.data, updatedAt: 0 });
  });

  it('rejects bad input with one detail per wrong field', async () => {
    const store = await t.newStore();
    const customerId = await customer(store);
    const bad = { addressType: 'Castle', email: 'nope', isDefault: 'true', city: 5, pincode: 'x'.repeat(65) };
    const error = expectError(await t.call(store, 'POST', `/customers/${customerId}/addresses`, bad), 400, 'VALIDATION_ERROR');
    expect(error.details.map((d) => d.field).sort()).toEqual(['addressType', 'city', 'email', 'isDefault', 'pincode']);
    expect((await t.call(store, 'GET', `/customers/${customerId}/addresses`)).body.data).toEqual([]);
    const { id } = (await t.call(store, 'POST', `/customers/${customerId}/addresses`, {})).body.data;
    const patch = expectError(
      await t.call(store, 'PATCH', `/addresses/${id}`, { street: 'x'.repeat(1001), addressType: null }),
      400,
      'VALIDATION_ERROR',
    );
    expect(patch.details.map((d) => d.field).sort()).toEqual(['addressType', 'street']);
    const nested = expectError(
      await t.call(store, 'POST', '/customers', { userName: 'n', password: '12345678', address: bad }),
      400,
      'VALIDATION_ERROR',
    );
    expect(nested.details.map((d) => d.field)).toContain('address.addressType');
  });

  it('deletes with data null; the most recent remaining address inherits the default', async () => {
    const store = await t.newStore();
    const customerId = await customer(store);
    const ids: string[] = [];
    for (const city of ['A', 'B', 'C'])
      ids.push((await t.call(store, 'POST', `/customers/${customerId}/addresses`, { city })).body.data.id);
    const deleted = await t.call(store, 'DELETE', `/addresses/${ids[0]}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true, data: null });
    expect(defaults((await t.call(store, 'GET', `/customers/${customerId}/addresses`)).body.data)).toEqual([ids[2]]);
    await t.call(store, 'DELETE', `/addresses/${ids[1]}`);
    expect(defaults((await t.call(store, 'GET', `/customers/${customerId}/addresses`)).body.data)).toEqual([ids[2]]);
    await t.call(store, 'DELETE', `/addresses/${ids[2]}`);
    expect((await t.call(store, 'GET', `/customers/${customerId}/addresses`)).body.data).toEqual([]);
    expectError(await t.call(store, 'GET', `/addresses/${ids[2]}`), 404, 'NOT_FOUND');
    expectError(await t.call(store, 'PATCH', `/addresses/${ids[2]}`, { city: 'x' }), 404, 'NOT_FOUND');
    expectError(await t.call(store, 'DELETE', `/addresses/${ids[2]}`), 404, 'NOT_FOUND');
    expectError(await t.call(store, 'GET', '/addresses/nope'), 404, 'NOT_FOUND');
    // The next address is the first again, hence the default.
    expect((await t.call(store, 'POST', `/customers/${customerId}/addresses`, {})).body.data.isDefault).toBe(true);
  });

  it('answers 404 for an unknown customer and 405 for methods the paths lack', async () => {
    const store = await t.newStore();
    expectError(await t.call(store, 'GET', '/customers/0123456789abcdef01234567/addresses'), 404, 'NOT_FOUND');
    expectError(await t.call(store, 'POST', '/customers/0123456789abcdef01234567/addresses', {}), 404, 'NOT_FOUND');
    expectError(await t.call(store, 'POST', '/customers/bad/addresses', {}), 404, 'NOT_FOUND');
    const res = await t.call(store, 'DELETE', '/customers/0123456789abcdef01234567/addresses');
    expectError(res, 405, 'METHOD_NOT_ALLOWED');
    expect(String(res.headers.allow)).toContain('POST');
  });

  it('caps a customer at 250 addresses, so the unpaginated list stays bounded', async () => {
    const store = await t.newStore();
    const customerId = await customer(store);
    const now = new Date();
    const rows = Array.from({ length: 250 }, (_, i) => ({
      store_id: store.id,
      id: `${'0'.repeat(21)}${String(i).padStart(3, '0')}`,
      customer_id: customerId,
      is_default: i === 0,
      created_at: now,
      updated_at: now,
    }));
    await t.database.db.insertInto('addresses').values(rows).execute();
    const error = expectError(await t.call(store, 'POST', `/customers/${customerId}/addresses`, {}), 400, 'VALIDATION_ERROR');
    expect(error.details[0].field).toBe('customerId');
    expect((await t.call(store, 'GET', `/customers/${customerId}/addresses`)).body.data).toHaveLength(250);
  });

  it("hides another store's addresses", async () => {
    const a = await t.newStore();
    const b = await t.newStore();
    const customerId = await customer(a, { address: home });
    const [address] = (await t.call(a, 'GET', `/customers/${customerId}/addresses`)).body.data;
    expectError(await t.call(b, 'GET', `/addresses/${address.id}`), 404, 'NOT_FOUND');
    expectError(await t.call(b, 'PATCH', `/addresses/${address.id}`, { city: 'mine', isDefault: true }), 404, 'NOT_FOUND');
    expectError(await t.call(b, 'DELETE', `/addresses/${address.id}`), 404, 'NOT_FOUND');
    expect((await t.call(a, 'GET', `/addresses/${address.id}`)).body.data).toEqual(address);
  });
});
