import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

async function locationsOf(store: TestStore) {
  const res = await t.call(store, 'GET', '/locations?sort=createdAt&limit=250');
  expect(res.status).toBe(200);
  return res.body.data as { id: string; name: string; isDefault: boolean; active: boolean }[];
}

async function create(store: TestStore, body: object) {
  const res = await t.call(store, 'POST', '/locations', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

describe('locations', () => {
  it('a new store has one default location named Default; CRUD returns every field', async () => {
    const store = await t.newStore();
    const [home] = await locationsOf(store);
    expect(home).toMatchObject({ name: 'Default', isDefault: true, active: true, code: null, address: null });
    const made = await create(store, { name: 'Berlin', code: 'BER', address: { city: 'Berlin', countryName: 'Germany' } });
    expect(Object.keys(made).sort()).toEqual(['active', 'address', 'code', 'createdAt', 'id', 'isDefault', 'name', 'updatedAt']);
    expect(made).toMatchObject({ name: 'Berlin', code: 'BER', active: true, isDefault: false, address: { city: 'Berlin' } });
    const got = await t.call(store, 'GET', `/locations/${made.id}`);
    expect(got.status).toBe(200);
    expect(got.headers.etag).toBeTruthy();
    const stale = await t.call(store, 'PATCH', `/locations/${made.id}`, { name: 'Berlin 1' }, { 'if-match': '"nope"' });
    expectError(stale, 412, 'PRECONDITION_FAILED');
    const patched = await t.call(
      store,
      'PATCH',
      `/locations/${made.id}`,
      { name: 'Berlin 1', code: null },
      { 'if-match': got.headers.etag as string },
    );
    expect(patched.body.data).toMatchObject({ name: 'Berlin 1', code: null });
    const deleted = await t.call(store, 'DELETE', `/locations/${made.id}`);
    expect(deleted.status).toBe(200);
    expect(await locationsOf(store)).toHaveLength(1);
  });

  it('names are unique case-insensitively and codes uniquely per store (409); another store may reuse them', async () => {
    const store = await t.newStore();
    await create(store, { name: 'Shop', code: 'S1' });
    const byName = expectError(await t.call(store, 'POST', '/locations', { name: 'SHOP' }), 409, 'DUPLICATE_VALUE');
    expect(byName.details[0].field).toBe('name');
    const byCode = expectError(await t.call(store, 'POST', '/locations', { name: 'Other', code: 'S1' }), 409, 'DUPLICATE_VALUE');
    expect(byCode.details[0].field).toBe('code');
    expectError(await t.call(store, 'POST', '/locations', { name: 'default' }), 409, 'DUPLICATE_VALUE');
    await create(await t.newStore(), { name: 'Shop', code: 'S1' });
  });

  it('PATCH isDefault moves the default; the default is neither inactive nor deleted (400 naming the field)', async () => {
    const store = await t.newStore();
    const [home] = await locationsOf(store);
    const shop = await create(store, { name: 'Shop' });
    const inactive = expectError(await t.call(store, 'PATCH', `/locations/${home.id}`, { active: false }), 400, 'VALIDATION_ERROR');
    expect(inactive.details[0].field).toBe('active');
    const undefaulted = expectError(await t.call(store, 'PATCH', `/locations/${home.id}`, { isDefault: false }), 400, 'VALIDATION_ERROR');
    expect(undefaulted.details[0].field).toBe('isDefault');
    const gone = expectError(await t.call(store, 'DELETE', `/locations/${home.id}`), 400, 'VALIDATION_ERROR');
    expect(gone.details[0]).toMatchObject({ field: 'id', in: 'path' });
    const moved = await t.call(store, 'PATCH', `/locations/${shop.id}`, { isDefault: true });
    expect(moved.body.data.isDefault).toBe(true);
    const after = await locationsOf(store);
    expect(after.filter((location) => location.isDefault).map((location) => location.id)).toEqual([shop.id]);
    expect((await t.call(store, 'PATCH', `/locations/${home.id}`, { active: false })).status).toBe(200);
    expect((await t.call(store, 'DELETE', `/locations/${home.id}`)).status).toBe(200);
  });

  it('a location holding stock is not deleted (409 LOCATION_NOT_EMPTY); at 0 it is', async () => {
    const store = await t.newStore();
    const shop = await create(store, { name: 'Shop' });
    const product = (await t.call(store, 'POST', '/products', { title: 'Mug', sku: 'MUG' })).body.data;
    const item = { productId: product.id, locationId: shop.id };
    expect((await t.call(store, 'POST', '/inventory-levels/set', { items: [{ ...item, available: 3 }] })).status).toBe(200);
    expectError(await t.call(store, 'DELETE', `/locations/${shop.id}`), 409, 'LOCATION_NOT_EMPTY');
    expect((await t.call(store, 'POST', '/inventory-levels/set', { items: [{ ...item, available: 0 }] })).status).toBe(200);
    expect((await t.call(store, 'DELETE', `/locations/${shop.id}`)).status).toBe(200);
    const levels = await t.call(store, 'GET', `/inventory-levels?productId=${product.id}`);
    expect(levels.body.data).toEqual([]);
  });

  it('a store has at most 100 locations: the 101st is a 400', async () => {
    const store = await t.newStore();
    for (let i = 1; i < 100; i++) await create(store, { name: `L${i}` });
    const refused = expectError(await t.call(store, 'POST', '/locations', { name: 'L100' }), 400, 'VALIDATION_ERROR');
    expect(refused.message).toBeTruthy();
    const page = await t.call(store, 'GET', '/locations?limit=30');
    expect(page.body.pagination.total).toBe(100);
    expect(page.body.pagination.nextCursor).toEqual(expect.any(String));
  });
});
