import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { idsOf, memberIds, newCollection, newProduct } from '../../test/support/collections.fixtures.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const collectionOf = async (store: TestStore, id: string) => (await t.call(store, 'GET', `/collections/${id}`)).body.data;
const productOf = async (store: TestStore, id: string) => (await t.call(store, 'GET', `/products/${id}`)).body.data;

describe('manual membership', () => {
  it('keeps selectedProducts in the given order; PATCH replaces, [] clears', async () => {
    const store = await t.newStore();
    const [a, b, c] = [
      await newProduct(t, store, { title: 'A' }),
      await newProduct(t, store, { title: 'B' }),
      await newProduct(t, store, { title: 'C' }),
    ];
    const created = await newCollection(t, store, { title: 'Picks', selectedProducts: [c.id, a.id] });
    expect(created.selectedProducts).toEqual([c.id, a.id]);
    const reordered = await t.call(store, 'PATCH', `/collections/${created.id}`, { selectedProducts: [a.id, b.id, c.id] });
    expect(reordered.body.data.selectedProducts).toEqual([a.id, b.id, c.id]);
    expect((await t.call(store, 'PATCH', `/collections/${created.id}`, { title: 'Kept' })).body.data.selectedProducts).toEqual([
      a.id,
      b.id,
      c.id,
    ]);
    expect((await productOf(store, b.id)).selectedCollection).toEqual([created.id]);
    const cleared = await t.call(store, 'PATCH', `/collections/${created.id}`, { selectedProducts: [] });
    expect(cleared.body.data.selectedProducts).toEqual([]);
    expect((await productOf(store, b.id)).selectedCollection).toEqual([]);
  });

  it('rejects unknown, malformed and repeated product ids, all at once, and changes nothing', async () => {
    const store = await t.newStore();
    const product = await newProduct(t, store, { title: 'Real' });
    const collection = await newCollection(t, store, { title: 'Strict', selectedProducts: [product.id] });
    const body = { selectedProducts: [product.id, 'nope', '0123456789abcdef01234567', product.id], title: 'Changed' };
    const error = expectError(await t.call(store, 'PATCH', `/collections/${collection.id}`, body), 400, 'VALIDATION_ERROR');
    expect(error.details.map((d) => d.field)).toEqual(['selectedProducts[3]', 'selectedProducts[1]', 'selectedProducts[2]']);
    expect(await collectionOf(store, collection.id)).toMatchObject({ title: 'Strict', selectedProducts: [product.id] });
    expectError(await t.call(store, 'POST', '/collections', { title: 'x', selectedProducts: [12] }), 400, 'VALIDATION_ERROR');
  });

  it('is one relation: products choose collections, collections list them (appended)', async () => {
    const store = await t.newStore();
    const first = await newProduct(t, store, { title: 'First' });
    const [c1, c2] = [
      await newCollection(t, store, { title: 'C1', selectedProducts: [first.id] }),
      await newCollection(t, store, { title: 'C2' }),
    ];
    const second = await newProduct(t, store, { title: 'Second', selectedCollections: [c2.id, c1.id] });
    expect(second.selectedCollection).toEqual([c2.id, c1.id]);
    expect((await collectionOf(store, c1.id)).selectedProducts).toEqual([first.id, second.id]);
    expect((await collectionOf(store, c2.id)).selectedProducts).toEqual([second.id]);
    await t.call(store, 'PATCH', `/products/${second.id}`, { selectedCollections: [c1.id] });
    expect((await collectionOf(store, c2.id)).selectedProducts).toEqual([]);
    expect((await collectionOf(store, c1.id)).selectedProducts).toEqual([first.id, second.id]);
    expect(await memberIds(t, store, c1.id, 'sort=createdAt')).toEqual([first.id, second.id]);
  });

  it('accepts only manual collections on the product side', async () => {
    const store = await t.newStore();
    const rules = await newCollection(t, store, {
      title: 'Rules',
      collectionType: 'smart',
      conditions: [{ field: 'title', operator: 'contains', value: 'x' }],
    });
    const manual = await newCollection(t, store, { title: 'Manual' });
    const reply = await t.call(store, 'POST', '/products', { title: 'P', selectedCollections: [manual.id, rules.id, manual.id, 'bad'] });
    const fields = expectError(reply, 400, 'VALIDATION_ERROR').details.map((d) => d.field);
    expect(fields.sort()).toEqual(['selectedCollections[1]', 'selectedCollections[2]', 'selectedCollections[3]']);
  });

  it('forgets memberships of deleted products and deleted collections', async () => {
    const store = await t.newStore();
    const [keep, drop] = [await newProduct(t, store, { title: 'Keep' }), await newProduct(t, store, { title: 'Drop' })];
    const collection = await newCollection(t, store, { title: 'Both', selectedProducts: [keep.id, drop.id] });
    const other = await newCollection(t, store, { title: 'Other', selectedProducts: [keep.id] });
    await t.call(store, 'DELETE', `/products/${drop.id}`);
    expect((await collectionOf(store, collection.id)).selectedProducts).toEqual([keep.id]);
    await t.call(store, 'DELETE', `/collections/${collection.id}`);
    expect((await productOf(store, keep.id)).selectedCollection).toEqual([other.id]);
  });
});

describe('collection type rules', () => {
  it('refuses fields of the other type', async () => {
    const store = await t.newStore();
    const product = await newProduct(t, store, { title: 'P' });
    const manual = { title: 'M', conditions: [{ field: 'title', operator: 'equals', value: 'x' }], matchType: 'any condition' };
    const onManual = expectError(await t.call(store, 'POST', '/collections', manual), 400, 'VALIDATION_ERROR');
    expect(onManual.details.map((d) => d.field)).toEqual(['conditions', 'matchType']);
    const smart = { title: 'S', collectionType: 'smart', selectedProducts: [product.id] };
    const onSmart = expectError(await t.call(store, 'POST', '/collections', smart), 400, 'VALIDATION_ERROR');
    expect(onSmart.details.map((d) => d.field)).toEqual(['conditions', 'selectedProducts']);
    const empty = expectError(
      await t.call(store, 'POST', '/collections', { ...smart, selectedProducts: [], conditions: [] }),
      400,
      'VALIDATION_ERROR',
    );
    expect(empty.details.map((d) => d.field)).toEqual(['conditions']);
  });

  it('switching manual -> smart drops manual members; smart -> manual drops the rules', async () => {
    const store = await t.newStore();
    const [tee, mug] = [await newProduct(t, store, { title: 'Tee' }), await newProduct(t, store, { title: 'Mug' })];
    const collection = await newCollection(t, store, { title: 'Switch', selectedProducts: [tee.id] });
    const needsRules = expectError(
      await t.call(store, 'PATCH', `/collections/${collection.id}`, { collectionType: 'smart' }),
      400,
      'VALIDATION_ERROR',
    );
    expect(needsRules.details.map((d) => d.field)).toEqual(['conditions']);
    const conditions = [{ field: 'title', operator: 'equals', value: 'mug' }];
    const toSmart = await t.call(store, 'PATCH', `/collections/${collection.id}`, { collectionType: 'smart', conditions });
    expect(toSmart.body.data).toMatchObject({ collectionType: 'smart', selectedProducts: [], matchType: 'all condition', conditions });
    expect((await productOf(store, tee.id)).selectedCollection).toEqual([]);
    expect(await memberIds(t, store, collection.id)).toEqual([mug.id]);
    const toManual = await t.call(store, 'PATCH', `/collections/${collection.id}`, { collectionType: 'manual' });
    expect(toManual.body.data).toMatchObject({ collectionType: 'manual', selectedProducts: [], matchType: null, conditions: [] });
    expect(await memberIds(t, store, collection.id)).toEqual([]);
    const back = await t.call(store, 'PATCH', `/collections/${collection.id}`, { collectionType: 'smart' });
    expect(expectError(back, 400, 'VALIDATION_ERROR').details[0].field).toBe('conditions');
  });
});

describe('GET /collections/{id}/products', () => {
  it('pages, sorts and searches the members like GET /products', async () => {
    const store = await t.newStore();
    const products = [];
    for (const [title, price] of [
      ['Blue Tee', 20],
      ['Red Tee', 10],
      ['Green Mug', 15],
      ['Outsider', 1],
    ] as const) {
      products.push(await newProduct(t, store, { title, price }));
    }
    const collection = await newCollection(t, store, { title: 'Members', selectedProducts: idsOf(products.slice(0, 3)) });
    const byPrice = await t.call(store, 'GET', `/collections/${collection.id}/products?sort=-price&limit=2`);
    expect(byPrice.body.data.map((p: { title: string }) => p.title)).toEqual(['Blue Tee', 'Green Mug']);
    expect(byPrice.body.pagination).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2, nextCursor: expect.any(String) });
    expect(byPrice.body.data[0].selectedCollection).toEqual([collection.id]);
    const searched = await t.call(store, 'GET', `/collections/${collection.id}/products?search=tee&sort=title`);
    expect(searched.body.data.map((p: { title: string }) => p.title)).toEqual(['Blue Tee', 'Red Tee']);
    expect(await memberIds(t, store, collection.id, 'sort=createdAt')).toEqual(idsOf(products.slice(0, 3)));
    // GET /products' filters are not this list's: each is refused by name, never ignored behind a 200
    const filtered = await t.call(
      store,
      'GET',
      `/collections/${collection.id}/products?status=disabled&handle=x&collection=${'0123456789abcdef01234567'}`,
    );
    const refused = expectError(filtered, 400, 'VALIDATION_ERROR').details.map((d) => `${d.in}:${d.field}`);
    expect(refused.sort()).toEqual(['query:collection', 'query:handle', 'query:status']);
    for (const query of ['sort=handle', 'limit=500', 'page=0']) {
      expectError(await t.call(store, 'GET', `/collections/${collection.id}/products?${query}`), 400, 'VALIDATION_ERROR');
    }
    const empty = await newCollection(t, store, { title: 'Empty' });
    const none = await t.call(store, 'GET', `/collections/${empty.id}/products`);
    expect(none.body).toEqual({ success: true, data: [], pagination: { page: 1, limit: 25, total: 0, totalPages: 0, nextCursor: null } });
  });
});
