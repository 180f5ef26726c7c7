import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { newCollection, newProduct } from '../../test/support/collections.fixtures.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const get = async (store: TestStore, id: string) => (await t.call(store, 'GET', `/collections/${id}`)).body.data;
const parentError = async (store: TestStore, id: string, parentCollection: unknown) => {
  const error = expectError(await t.call(store, 'PATCH', `/collections/${id}`, { parentCollection }), 400, 'VALIDATION_ERROR');
  expect(error.details.map((d) => d.field)).toEqual(['parentCollection']);
};

/** root -> child -> grandchild, plus a second root */
async function tree(store: TestStore) {
  const root = await newCollection(t, store, { title: 'Root' });
  const child = await newCollection(t, store, { title: 'Child', parentCollection: root.id });
  const grandchild = await newCollection(t, store, { title: 'Grandchild', parentCollection: child.id });
  const other = await newCollection(t, store, { title: 'Other root' });
  return { root, child, grandchild, other };
}

describe('collection hierarchy', () => {
  it('derives childCollection from the children, oldest first', async () => {
    const store = await t.newStore();
    const { root, child, grandchild } = await tree(store);
    const second = await newCollection(t, store, { title: 'Second child', parentCollection: root.id });
    expect(await get(store, root.id)).toMatchObject({ parentCollection: null, childCollection: [child.id, second.id] });
    expect(await get(store, child.id)).toMatchObject({ parentCollection: root.id, childCollection: [grandchild.id] });
    expect(await get(store, grandchild.id)).toMatchObject({ parentCollection: child.id, childCollection: [] });
  });

  it('moves a subtree and detaches with null', async () => {
    const store = await t.newStore();
    const { root, child, grandchild, other } = await tree(store);
    const moved = await t.call(store, 'PATCH', `/collections/${child.id}`, { parentCollection: other.id });
    expect(moved.body.data).toMatchObject({ parentCollection: other.id, childCollection: [grandchild.id] });
    expect((await get(store, root.id)).childCollection).toEqual([]);
    expect((await get(store, other.id)).childCollection).toEqual([child.id]);
    const detached = await t.call(store, 'PATCH', `/collections/${child.id}`, { parentCollection: null });
    expect(detached.body.data.parentCollection).toBeNull();
    expect((await get(store, other.id)).childCollection).toEqual([]);
  });

  it('refuses itself, a descendant, an unknown or malformed id as parent', async () => {
    const store = await t.newStore();
    const { root, child, grandchild, other } = await tree(store);
    await parentError(store, root.id, root.id);
    await parentError(store, root.id, child.id);
    await parentError(store, root.id, grandchild.id);
    await parentError(store, child.id, grandchild.id);
    await parentError(store, root.id, '0123456789abcdef01234567');
    await parentError(store, root.id, 'not-an-id');
    expectError(await t.call(store, 'PATCH', `/collections/${root.id}`, { parentCollection: 7 }), 400, 'VALIDATION_ERROR');
    expect(await get(store, root.id)).toMatchObject({ parentCollection: null, childCollection: [child.id] });
    // Re-stating the current parent and adopting an unrelated root are fine.
    expect((await t.call(store, 'PATCH', `/collections/${grandchild.id}`, { parentCollection: child.id })).status).toBe(200);
    expect((await t.call(store, 'PATCH', `/collections/${other.id}`, { parentCollection: grandchild.id })).status).toBe(200);
    await parentError(store, root.id, other.id);
  });

  it("refuses another store's collection as parent", async () => {
    const [a, b] = [await t.newStore(), await t.newStore()];
    const foreign = await newCollection(t, a, { title: 'Foreign' });
    const error = expectError(
      await t.call(b, 'POST', '/collections', { title: 'Mine', parentCollection: foreign.id }),
      400,
      'VALIDATION_ERROR',
    );
    expect(error.details.map((d) => d.field)).toEqual(['parentCollection']);
    const mine = await newCollection(t, b, { title: 'Mine' });
    await parentError(b, mine.id, foreign.id);
    expect((await get(a, foreign.id)).childCollection).toEqual([]);
  });

  it('deleting a collection detaches its children and drops its memberships', async () => {
    const store = await t.newStore();
    const product = await newProduct(t, store, { title: 'Member' });
    const root = await newCollection(t, store, { title: 'Root', selectedProducts: [product.id] });
    const child = await newCollection(t, store, { title: 'Child', parentCollection: root.id });
    const grandchild = await newCollection(t, store, { title: 'Grandchild', parentCollection: child.id });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await t.call(store, 'DELETE', `/collections/${root.id}`)).status).toBe(200);
    const orphan = await get(store, child.id);
    expect(orphan).toMatchObject({ parentCollection: null, childCollection: [grandchild.id] });
    expect(Date.parse(orphan.updatedAt)).toBeGreaterThan(Date.parse(child.updatedAt));
    expect((await get(store, grandchild.id)).parentCollection).toBe(child.id);
    expect((await t.call(store, 'GET', `/products/${product.id}`)).body.data.selectedCollection).toEqual([]);
    expect((await t.call(store, 'GET', '/collections')).body.pagination.total).toBe(2);
  });
});

describe('concurrent writes', () => {
  it('never lets two moves make a cycle', async () => {
    const store = await t.newStore();
    const a = await newCollection(t, store, { title: 'A' });
    const b = await newCollection(t, store, { title: 'B' });
    const replies = await Promise.all([
      t.call(store, 'PATCH', `/collections/${a.id}`, { parentCollection: b.id }),
      t.call(store, 'PATCH', `/collections/${b.id}`, { parentCollection: a.id }),
    ]);
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 400]);
    const parents = [(await get(store, a.id)).parentCollection, (await get(store, b.id)).parentCollection];
    expect(parents.filter((parent) => parent !== null)).toHaveLength(1);
  });

  it('gives concurrent creations of one title distinct handles', async () => {
    const store = await t.newStore();
    const replies = await Promise.all(Array.from({ length: 6 }, () => t.call(store, 'POST', '/collections', { title: 'Rush' })));
    expect(replies.map((reply) => reply.status)).toEqual([201, 201, 201, 201, 201, 201]);
    const handles = replies.map((reply) => reply.body.data.handle).sort();
    expect(handles).toEqual(['rush', 'rush-2', 'rush-3', 'rush-4', 'rush-5', 'rush-6']);
  });
});
