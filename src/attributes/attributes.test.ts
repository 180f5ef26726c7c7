import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

async function createAttribute(store: TestStore, body: object) {
  const res = await t.call(store, 'POST', '/attributes', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

describe('attributes', () => {
  it('creates with values upserted by name and returns every field', async () => {
    const store = await t.newStore();
    const set = (await t.call(store, 'POST', '/attribute-sets', { name: 'Apparel' })).body.data;
    const attribute = await createAttribute(store, { name: 'Size', attributeset: set.id, values: ['S', 'M', 'L'] });
    expect(Object.keys(attribute).sort()).toEqual(['attributeset', 'createdAt', 'id', 'name', 'updatedAt', 'values']);
    expect(attribute.attributeset).toBe(set.id);
    expect(attribute.values).toHaveLength(3);
    const bare = await createAttribute(store, { name: 'Material' });
    expect(bare).toMatchObject({ attributeset: null, values: [] });
  });

  it('reuses value ids for names that exist, in the supplied order, and deactivates dropped ones', async () => {
    const store = await t.newStore();
    const attribute = await createAttribute(store, { name: 'Color', values: ['Red', 'Green', 'Blue'] });
    const [red, green, blue] = attribute.values;
    const patched = await t.call(store, 'PATCH', `/attributes/${attribute.id}`, { values: ['Blue', 'Black', 'Red'] });
    expect(patched.status).toBe(200);
    expect(patched.body.data.values[0]).toBe(blue);
    expect(patched.body.data.values[2]).toBe(red);
    expect(patched.body.data.values).not.toContain(green);
    const expanded = await t.call(store, 'GET', `/attributes/${attribute.id}?expand=values`);
    expect(expanded.body.data.values.map((v: { name: string }) => v.name)).toEqual(['Blue', 'Black', 'Red']);
    expect(expanded.body.data.values[0]).toEqual({
      id: blue,
      attribute: attribute.id,
      name: 'Blue',
      value: 'Blue',
      hex: null,
      status: 'active',
      createdAt: expect.stringMatching(/Z$/),
    });
    const back = await t.call(store, 'PATCH', `/attributes/${attribute.id}`, { values: ['Green'] });
    expect(back.body.data.values).toEqual([green]);
  });

  it('are shared with product options: options reuse values, reactivate dropped ones and append new ones', async () => {
    const store = await t.newStore();
    const attribute = await createAttribute(store, { name: 'Size', values: ['S', 'M'] });
    const [small, medium] = attribute.values;
    await t.call(store, 'PATCH', `/attributes/${attribute.id}`, { values: ['S'] });
    const product = await t.call(store, 'POST', '/products', { title: 'Tee', options: [{ name: 'size', values: ['M', 'L', 'S'] }] });
    expect(product.status).toBe(201);
    const expanded = (await t.call(store, 'GET', `/attributes/${attribute.id}?expand=values`)).body.data;
    expect(expanded.name).toBe('Size');
    expect(expanded.values.map((v: { name: string; status: string }) => `${v.name}:${v.status}`)).toEqual([
      'S:active',
      'M:active',
      'L:active',
    ]);
    expect(expanded.values[0].id).toBe(small);
    expect(expanded.values[1].id).toBe(medium);
    expect((await t.call(store, 'GET', '/attributes')).body.pagination.total).toBe(1);
  });

  it('rejects duplicate value names, bad types and unknown attribute sets', async () => {
    const store = await t.newStore();
    const dup = expectError(await t.call(store, 'POST', '/attributes', { name: 'Size', values: ['S', 'M', 'S'] }), 400, 'VALIDATION_ERROR');
    expect(dup.details).toEqual([{ field: 'values[2]', in: 'body', message: 'is listed twice' }]);
    const types = expectError(await t.call(store, 'POST', '/attributes', { name: 1, values: [1, ''] }), 400, 'VALIDATION_ERROR');
    expect(types.details.map((d) => d.field).sort()).toEqual(['name', 'values[0]', 'values[1]']);
    const ref = expectError(
      await t.call(store, 'POST', '/attributes', { name: 'Fit', attributeset: '0123456789abcdef01234567' }),
      400,
      'VALIDATION_ERROR',
    );
    expect(ref.details[0].field).toBe('attributeset');
    expectError(await t.call(store, 'POST', '/attributes', { name: 'Fit', attributeset: 'nope' }), 400, 'VALIDATION_ERROR');
    expect((await t.call(store, 'GET', '/attributes')).body.pagination.total).toBe(0);
  });

  it('keeps names unique per store, case-insensitively', async () => {
    const store = await t.newStore();
    await createAttribute(store, { name: 'Size' });
    expect(expectError(await t.call(store, 'POST', '/attributes', { name: 'size' }), 400, 'DUPLICATE_VALUE').details[0].field).toBe('name');
  });

  it('leaves attributes with attributeset null when their set is deleted', async () => {
    const store = await t.newStore();
    const set = (await t.call(store, 'POST', '/attribute-sets', { name: 'Shoes' })).body.data;
    const attribute = await createAttribute(store, { name: 'Width', attributeset: set.id });
    await t.call(store, 'DELETE', `/attribute-sets/${set.id}`);
    expect((await t.call(store, 'GET', `/attributes/${attribute.id}`)).body.data.attributeset).toBeNull();
    const unset = await t.call(store, 'PATCH', `/attributes/${attribute.id}`, { attributeset: null, name: 'Shoe width' });
    expect(unset.body.data).toMatchObject({ attributeset: null, name: 'Shoe width' });
  });

  it('deletes an attribute with its values', async () => {
    const store = await t.newStore();
    const attribute = await createAttribute(store, { name: 'Temp', values: ['a'] });
    expect((await t.call(store, 'DELETE', `/attributes/${attribute.id}`)).body).toEqual({ success: true, data: { id: attribute.id } });
    expectError(await t.call(store, 'GET', `/attributes/${attribute.id}`), 404, 'NOT_FOUND');
    expectError(await t.call(store, 'DELETE', `/attributes/${attribute.id}`), 404, 'NOT_FOUND');
  });

  it('lists with sorts, search, expand and pagination', async () => {
    const store = await t.newStore();
    for (const name of ['Size', 'color', 'Material']) await createAttribute(store, { name, values: ['x'] });
    const byName = await t.call(store, 'GET', '/attributes?sort=name&expand=values');
    expect(byName.body.data.map((a: { name: string }) => a.name)).toEqual(['color', 'Material', 'Size']);
    expect(byName.body.data[0].values[0].name).toBe('x');
    const search = await t.call(store, 'GET', '/attributes?search=TERI');
    expect(search.body.data.map((a: { name: string }) => a.name)).toEqual(['Material']);
    const page = await t.call(store, 'GET', '/attributes?limit=1&page=3&sort=-createdAt');
    expect(page.body.data[0].name).toBe('Size');
    expect(page.body.pagination).toEqual({ page: 3, limit: 1, total: 3, totalPages: 3, nextCursor: null });
    expectError(await t.call(store, 'GET', '/attributes?expand=everything'), 400, 'VALIDATION_ERROR');
  });

  it('seals stores off: another store cannot read, change, reference or find them', async () => {
    const a = await t.newStore();
    const b = await t.newStore();
    const setA = (await t.call(a, 'POST', '/attribute-sets', { name: 'A set' })).body.data;
    const attribute = await createAttribute(a, { name: 'Hidden', values: ['v'] });
    expectError(await t.call(b, 'GET', `/attributes/${attribute.id}`), 404, 'NOT_FOUND');
    expectError(await t.call(b, 'PATCH', `/attributes/${attribute.id}`, { name: 'x' }), 404, 'NOT_FOUND');
    expectError(await t.call(b, 'DELETE', `/attributes/${attribute.id}`), 404, 'NOT_FOUND');
    expectError(await t.call(b, 'POST', '/attributes', { name: 'Mine', attributeset: setA.id }), 400, 'VALIDATION_ERROR');
    expect((await t.call(b, 'GET', '/attributes?search=Hidden')).body.data).toEqual([]);
    expect((await t.call(b, 'POST', '/attributes', { name: 'Hidden' })).status).toBe(201);
  });
});
