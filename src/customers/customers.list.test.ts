import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, recordStatements, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { GENERIC_PLAN_MARK } from '../db/index.js';

let t: TestContext;
const statements: string[] = [];
beforeAll(async () => {
  t = await setupTestApp({}, recordStatements(statements));
});
afterAll(() => t.close());

const names = (res: { body: { data: { userName: string }[] } }) => res.body.data.map((c) => c.userName);

async function seed(store: TestStore) {
  const people = [
    { userName: 'ann', email: 'ann@mail.test', firstName: 'Ann', createdAt: '2020-01-01T00:00:00.000Z' },
    { userName: 'bob', lastName: 'Builder', createdAt: '2021-01-01T00:00:00.000Z' },
    { userName: 'cat_1', phoneNumber: '+49 30 1234', createdAt: '2022-01-01T00:00:00.000Z' },
    { userName: 'dan%2', businessName: 'Dan GmbH', createdAt: '2023-01-01T00:00:00.000Z' },
  ];
  for (const person of people) {
    const res = await t.call(store, 'POST', '/customers', { password: '12345678', ...person });
    expect(res.status).toBe(201);
  }
}

describe('customers: list', () => {
  it('paginates newest first by default, sorts by createdAt both ways', async () => {
    const store = await t.newStore();
    await seed(store);
    const all = await t.call(store, 'GET', '/customers');
    expect(names(all)).toEqual(['dan%2', 'cat_1', 'bob', 'ann']);
    expect(all.body.pagination).toEqual({ page: 1, limit: 25, total: 4, totalPages: 1, nextCursor: null });
    expect(names(await t.call(store, 'GET', '/customers?sort=createdAt&limit=3'))).toEqual(['ann', 'bob', 'cat_1']);
    const page2 = await t.call(store, 'GET', '/customers?sort=-createdAt&limit=3&page=2');
    expect(names(page2)).toEqual(['ann']);
    expect(page2.body.pagination).toEqual({ page: 2, limit: 3, total: 4, totalPages: 2, nextCursor: null });
    const past = await t.call(store, 'GET', '/customers?page=5');
    expect(past.body.data).toEqual([]);
    expect(past.body.pagination.total).toBe(4);
  });

  it('breaks createdAt ties by id, in the direction of the sort, across pages', async () => {
    const store = await t.newStore();
    const createdAt = '2024-05-05T05:05:05.000Z';
    const ids: string[] = [];
    for (const userName of ['t1', 't2', 't3']) {
      ids.push((await t.call(store, 'POST', '/customers', { userName, password: '12345678', createdAt })).body.data.id);
    }
    const listed = async (query: string) => (await t.call(store, 'GET', `/customers?${query}`)).body.data.map((c: { id: string }) => c.id);
    const ascending = [...ids].sort();
    expect(await listed('sort=createdAt')).toEqual(ascending);
    expect(await listed('sort=-createdAt')).toEqual([...ascending].reverse());
    expect([...(await listed('sort=createdAt&limit=2')), ...(await listed('sort=createdAt&limit=2&page=2'))]).toEqual(ascending);
  });

  it('searches userName, email, names, phone and business, case-insensitively and literally', async () => {
    const store = await t.newStore();
    await seed(store);
    const search = async (term: string) => names(await t.call(store, 'GET', `/customers?search=${encodeURIComponent(term)}`));
    expect(await search('ANN')).toEqual(['ann']);
    expect(await search('mail.TEST')).toEqual(['ann']);
    expect(await search('builder')).toEqual(['bob']);
    expect(await search('30 12')).toEqual(['cat_1']);
    expect(await search('gmbh')).toEqual(['dan%2']);
    expect(await search('_')).toEqual(['cat_1']);
    expect(await search('%')).toEqual(['dan%2']);
    expect(await search('nobody')).toEqual([]);
  });

  it("searches with its session's plan made without the term (ListSpec.searchPlan: the six trigram indexes for any term)", async () => {
    const store = await t.newStore();
    await seed(store);
    const before = statements.length;
    for (const term of ['ann', 'a', 'Builder']) expect((await t.call(store, 'GET', `/customers?search=${term}`)).status).toBe(200);
    const searches = statements.slice(before).filter((text) => text.includes('list_matches') && text.includes('ILIKE'));
    expect(searches).toHaveLength(3);
    for (const text of searches) expect(text.startsWith(GENERIC_PLAN_MARK)).toBe(true);
  });

  it('rejects bad list parameters', async () => {
    const store = await t.newStore();
    for (const query of ['page=0', 'limit=0', 'limit=251', 'sort=userName', 'sort=-email', 'page=x']) {
      const error = expectError(await t.call(store, 'GET', `/customers?${query}`), 400, 'VALIDATION_ERROR');
      expect(error.details[0].in).toBe('query');
    }
  });
});

describe('customers: tenancy and scopes', () => {
  it('seals stores off from each other', async () => {
    const a = await t.newStore();
    const b = await t.newStore();
    const { id } = (await t.call(a, 'POST', '/customers', { userName: 'secret', password: '12345678', address: { city: 'X' } })).body.data;
    expectError(await t.call(b, 'GET', `/customers/${id}`), 404, 'NOT_FOUND');
    expectError(await t.call(b, 'PATCH', `/customers/${id}`, { firstName: 'mine' }), 404, 'NOT_FOUND');
    expectError(await t.call(b, 'GET', `/customers/${id}/addresses`), 404, 'NOT_FOUND');
    expectError(await t.call(b, 'POST', `/customers/${id}/addresses`, { city: 'Y' }), 404, 'NOT_FOUND');
    expect((await t.call(b, 'GET', '/customers')).body).toEqual({
      success: true,
      data: [],
      pagination: { page: 1, limit: 25, total: 0, totalPages: 0, nextCursor: null },
    });
    expect((await t.call(b, 'GET', '/customers?search=secret')).body.data).toEqual([]);
    expect((await t.call(a, 'GET', `/customers/${id}`)).body.data.firstName).toBeNull();
    expect((await t.call(a, 'GET', `/customers/${id}/addresses`)).body.data).toHaveLength(1);
  });

  it('needs customers:read to read and customers:write to write', async () => {
    const store = await t.newStore();
    const { id } = (await t.call(store, 'POST', '/customers', { userName: 'u', password: '12345678' })).body.data;
    const reader = (await t.call(store, 'POST', '/api-keys', { name: 'r', scopes: ['customers:read'] })).body.data.key;
    const orders = (await t.call(store, 'POST', '/api-keys', { name: 'o', scopes: ['orders:read', 'orders:write'] })).body.data.key;
    expect((await t.call(reader, 'GET', `/customers/${id}`)).status).toBe(200);
    expect((await t.call(reader, 'GET', `/customers/${id}/addresses`)).status).toBe(200);
    expectError(await t.call(reader, 'POST', '/customers', { userName: 'v', password: '12345678' }), 403, 'FORBIDDEN');
    expectError(await t.call(reader, 'PATCH', `/customers/${id}`, { firstName: 'x' }), 403, 'FORBIDDEN');
    expectError(await t.call(reader, 'POST', `/customers/${id}/addresses`, {}), 403, 'FORBIDDEN');
    expectError(await t.call(orders, 'GET', '/customers'), 403, 'FORBIDDEN');
    expectError(await t.call(null, 'GET', '/customers'), 401, 'UNAUTHORIZED');
  });
});
