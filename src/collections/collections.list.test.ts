import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext } from '../../test/helpers.js';
import { newCollection, newProduct } from '../../test/support/collections.fixtures.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const titles = (reply: { body: { data: { title: string }[] } }) => reply.body.data.map((c) => c.title);

describe('GET /collections', () => {
  it('pages and sorts by createdAt (default newest first) and title', async () => {
    const store = await t.newStore();
    for (const title of ['beta', 'Alpha', 'gamma_1', 'gamma%2', 'delta']) await newCollection(t, store, { title });
    expect(titles(await t.call(store, 'GET', '/collections'))).toEqual(['delta', 'gamma%2', 'gamma_1', 'Alpha', 'beta']);
    expect(titles(await t.call(store, 'GET', '/collections?sort=createdAt'))).toEqual(['beta', 'Alpha', 'gamma_1', 'gamma%2', 'delta']);
    expect(titles(await t.call(store, 'GET', '/collections?sort=-title'))[0]).toBe('gamma_1');
    const page = await t.call(store, 'GET', '/collections?limit=2&page=2&sort=title');
    expect(titles(page)).toEqual(['delta', 'gamma%2']);
    expect(page.body.pagination).toEqual({ page: 2, limit: 2, total: 5, totalPages: 3, nextCursor: expect.any(String) });
    const past = await t.call(store, 'GET', '/collections?page=9');
    expect(past.body.data).toEqual([]);
    expect(past.body.pagination).toEqual({ page: 9, limit: 25, total: 5, totalPages: 1, nextCursor: null });
  });

  it('breaks ties on id so pages never repeat or skip', async () => {
    const store = await t.newStore();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await newCollection(t, store, { title: 'Same' })).id);
    const seen: string[] = [];
    for (let page = 1; page <= 4; page++) {
      const reply = await t.call(store, 'GET', `/collections?sort=title&limit=2&page=${page}`);
      seen.push(...reply.body.data.map((c: { id: string }) => c.id));
    }
    // every id once, in id order (the tie-break), across the page boundaries
    expect(seen).toEqual([...ids].sort());
  });

  it('searches title and handle, case-insensitively, with % and _ literal', async () => {
    const store = await t.newStore();
    await newCollection(t, store, { title: 'Summer Sale', handle: 'hot-deals' });
    await newCollection(t, store, { title: '50% off' });
    await newCollection(t, store, { title: 'snake_case' });
    await newCollection(t, store, { title: 'Winter' });
    expect(titles(await t.call(store, 'GET', '/collections?search=SUMMER'))).toEqual(['Summer Sale']);
    expect(titles(await t.call(store, 'GET', '/collections?search=hot-DE'))).toEqual(['Summer Sale']);
    expect(titles(await t.call(store, 'GET', `/collections?search=${encodeURIComponent('%')}`))).toEqual(['50% off']);
    expect(titles(await t.call(store, 'GET', '/collections?search=e_c'))).toEqual(['snake_case']);
    const none = await t.call(store, 'GET', '/collections?search=nothing');
    expect(none.body).toEqual({ success: true, data: [], pagination: { page: 1, limit: 25, total: 0, totalPages: 0, nextCursor: null } });
  });

  it('rejects bad list parameters', async () => {
    const store = await t.newStore();
    for (const query of ['page=0', 'limit=0', 'limit=251', 'limit=1.5', 'page=abc', 'sort=price', 'sort=handle', 'sort=--title']) {
      const error = expectError(await t.call(store, 'GET', `/collections?${query}`), 400, 'VALIDATION_ERROR');
      expect(error.details[0].in).toBe('query');
    }
  });

  it('lists selected products and children of every collection on the page', async () => {
    const store = await t.newStore();
    const [p1, p2] = [await newProduct(t, store, { title: 'P1' }), await newProduct(t, store, { title: 'P2' })];
    const parent = await newCollection(t, store, { title: 'Parent', selectedProducts: [p2.id, p1.id] });
    const child1 = await newCollection(t, store, { title: 'Child 1', parentCollection: parent.id, selectedProducts: [p1.id] });
    const child2 = await newCollection(t, store, { title: 'Child 2', parentCollection: parent.id });
    const list = await t.call(store, 'GET', '/collections?sort=title');
    const byTitle = Object.fromEntries(list.body.data.map((c: { title: string }) => [c.title, c]));
    expect(byTitle.Parent).toMatchObject({
      selectedProducts: [p2.id, p1.id],
      childCollection: [child1.id, child2.id],
      parentCollection: null,
    });
    expect(byTitle['Child 1']).toMatchObject({ selectedProducts: [p1.id], childCollection: [], parentCollection: parent.id });
    expect(byTitle['Child 2']).toMatchObject({ selectedProducts: [], childCollection: [], parentCollection: parent.id });
  });
});
