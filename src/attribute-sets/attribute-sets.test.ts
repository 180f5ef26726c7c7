import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext } from '../../test/helpers.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

describe('attribute sets', () => {
  it('creates with defaults and returns every field', async () => {
    const store = await t.newStore();
    const unknown = await t.call(store, 'POST', '/attribute-sets', { name: 'Clothing', ignored: true });
    expect(expectError(unknown, 400, 'VALIDATION_ERROR').details.map((d) => d.field)).toEqual(['ignored']);
    const res = await t.call(store, 'POST', '/attribute-sets', { name: '  Clothing ', ignored: true }, { prefer: 'handling=lenient' });
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    expect(Object.keys(res.body.data).sort()).toEqual(['createdAt', 'id', 'name', 'status', 'updatedAt']);
    expect(res.body.data).toMatchObject({ name: 'Clothing', status: 'active' });
    expect(res.body.data.id).toMatch(/^[0-9a-f]{24}$/);
    expect(res.body.data.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const got = await t.call(store, 'GET', `/attribute-sets/${res.body.data.id}`);
    expect(got.body.data).toEqual(res.body.data);
  });

  it('rejects bad input with one detail per wrong field and stores nothing', async () => {
    const store = await t.newStore();
    const error = expectError(await t.call(store, 'POST', '/attribute-sets', { name: 12, status: 'archived' }), 400, 'VALIDATION_ERROR');
    expect(error.details.map((d) => d.field).sort()).toEqual(['name', 'status']);
    expect(error.details.every((d) => d.in === 'body')).toBe(true);
    expectError(await t.call(store, 'POST', '/attribute-sets', {}), 400, 'VALIDATION_ERROR');
    expectError(await t.call(store, 'POST', '/attribute-sets', { name: '   ' }), 400, 'VALIDATION_ERROR');
    expectError(await t.call(store, 'POST', '/attribute-sets', { name: 'x'.repeat(10_000) }), 400, 'VALIDATION_ERROR');
    const list = await t.call(store, 'GET', '/attribute-sets');
    expect(list.body.pagination.total).toBe(0);
  });

  it('keeps names unique per store, case-insensitively', async () => {
    const store = await t.newStore();
    await t.call(store, 'POST', '/attribute-sets', { name: 'Shoes' });
    const error = expectError(await t.call(store, 'POST', '/attribute-sets', { name: 'SHOES' }), 400, 'DUPLICATE_VALUE');
    expect(error.details[0].field).toBe('name');
    const other = await t.newStore();
    expect((await t.call(other, 'POST', '/attribute-sets', { name: 'Shoes' })).status).toBe(201);
    const second = await t.call(store, 'POST', '/attribute-sets', { name: 'Boots' });
    expectError(await t.call(store, 'PATCH', `/attribute-sets/${second.body.data.id}`, { name: 'shoes' }), 400, 'DUPLICATE_VALUE');
  });

  it('updates name and status, and a fetched record can be sent back', async () => {
    const store = await t.newStore();
    const created = await t.call(store, 'POST', '/attribute-sets', { name: 'Hats' });
    const id = created.body.data.id;
    const patched = await t.call(store, 'PATCH', `/attribute-sets/${id}`, { status: 'inactive' });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ name: 'Hats', status: 'inactive' });
    expect(Date.parse(patched.body.data.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.body.data.updatedAt));
    const roundTrip = await t.call(store, 'PATCH', `/attribute-sets/${id}`, patched.body.data);
    expect(roundTrip.status).toBe(200);
    expectError(await t.call(store, 'PATCH', `/attribute-sets/${id}`, { status: 'gone' }), 400, 'VALIDATION_ERROR');
  });

  it('deletes, then answers 404', async () => {
    const store = await t.newStore();
    const { id } = (await t.call(store, 'POST', '/attribute-sets', { name: 'Temp' })).body.data;
    const deleted = await t.call(store, 'DELETE', `/attribute-sets/${id}`);
    expect(deleted.body).toEqual({ success: true, data: { id } });
    expectError(await t.call(store, 'GET', `/attribute-sets/${id}`), 404, 'NOT_FOUND');
    expectError(await t.call(store, 'DELETE', `/attribute-sets/${id}`), 404, 'NOT_FOUND');
    expectError(await t.call(store, 'PATCH', `/attribute-sets/${id}`, { name: 'x' }), 404, 'NOT_FOUND');
    expectError(await t.call(store, 'GET', '/attribute-sets/not-an-id'), 404, 'NOT_FOUND');
  });

  it('lists with pagination, sorts, status filter and literal search', async () => {
    const store = await t.newStore();
    for (const name of ['beta', 'Alpha', 'gamma_1', 'gamma%2', 'delta']) {
      await t.call(store, 'POST', '/attribute-sets', { name, status: name === 'delta' ? 'inactive' : 'active' });
    }
    const page = await t.call(store, 'GET', '/attribute-sets?limit=2&page=2&sort=name');
    expect(page.body.data.map((s: { name: string }) => s.name)).toEqual(['delta', 'gamma%2']);
    expect(page.body.pagination).toEqual({ page: 2, limit: 2, total: 5, totalPages: 3, nextCursor: expect.any(String) });
    const desc = await t.call(store, 'GET', '/attribute-sets?sort=-name');
    expect(desc.body.data[0].name).toBe('gamma_1');
    const newest = await t.call(store, 'GET', '/attribute-sets');
    expect(newest.body.data[0].name).toBe('delta');
    const inactive = await t.call(store, 'GET', '/attribute-sets?status=inactive');
    expect(inactive.body.data.map((s: { name: string }) => s.name)).toEqual(['delta']);
    const underscore = await t.call(store, 'GET', '/attribute-sets?search=A_1');
    expect(underscore.body.data.map((s: { name: string }) => s.name)).toEqual(['gamma_1']);
    const percent = await t.call(store, 'GET', `/attribute-sets?search=${encodeURIComponent('%')}`);
    expect(percent.body.data.map((s: { name: string }) => s.name)).toEqual(['gamma%2']);
    const past = await t.call(store, 'GET', '/attribute-sets?page=9');
    expect(past.body.data).toEqual([]);
    expect(past.body.pagination.total).toBe(5);
  });

  it('rejects bad list parameters', async () => {
    const store = await t.newStore();
    for (const query of ['page=0', 'limit=251', 'limit=1.5', 'page=abc', 'sort=price', 'status=gone']) {
      const error = expectError(await t.call(store, 'GET', `/attribute-sets?${query}`), 400, 'VALIDATION_ERROR');
      expect(error.details[0].in).toBe('query');
    }
  });

  it('seals stores off from each other', async () => {
    const a = await t.newStore();
    const b = await t.newStore();
    const { id } = (await t.call(a, 'POST', '/attribute-sets', { name: 'Secret set' })).body.data;
    expectError(await t.call(b, 'GET', `/attribute-sets/${id}`), 404, 'NOT_FOUND');
    expectError(await t.call(b, 'PATCH', `/attribute-sets/${id}`, { name: 'mine' }), 404, 'NOT_FOUND');
    expectError(await t.call(b, 'DELETE', `/attribute-sets/${id}`), 404, 'NOT_FOUND');
    expect((await t.call(b, 'GET', '/attribute-sets?search=Secret')).body.data).toEqual([]);
    expect((await t.call(b, 'GET', '/attribute-sets')).body.pagination.total).toBe(0);
    expect((await t.call(a, 'GET', `/attribute-sets/${id}`)).body.data.name).toBe('Secret set');
  });
});
