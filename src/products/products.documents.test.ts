import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { canonicalJson, etagOf } from '../shared/canonical-json.js';
import { storedProduct } from './product-documents.sql.js';
import { rebuildProductDocuments } from './products.documents.js';
import { getProduct } from './products.service.js';

/**
 * Stored product documents (migrations/0022): every write through the API leaves each product it changed
 * with a document equal to the product built from its rows, and GET sends that document only while the
 * product row is the version it was written for.
 */

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const OPTIONS = [
  { name: 'Größe', values: ['S', 'M'] },
  { name: 'Color', values: ['Red', 'Blue'] },
];

/** The product's stored document is there, current, and the product as its rows give it (text and ETag). */
async function expectCurrentDocument(store: TestStore, id: string): Promise<void> {
  const stored = await storedProduct(t.database.db, store.id, id);
  expect(stored).toBeDefined();
  const built = await getProduct(t.database.db, store.id, id);
  expect(stored?.body).toBe(canonicalJson(built));
  expect(stored?.etag).toBe(etagOf(built));
  const read = await t.call(store, 'GET', `/products/${id}`);
  expect(read.status).toBe(200);
  expect(read.headers['content-type']).toMatch(/^application\/json/);
  expect(read.headers.etag).toBe(etagOf(built));
  expect(read.body).toEqual({ success: true, data: built });
}

describe('stored product documents', () => {
  it('every kind of write leaves the products it changed with a current document', async () => {
    const store = await t.newStore();
    const created = await t.call(store, 'POST', '/products', {
      title: 'Tee',
      price: 9.9,
      options: OPTIONS,
      images: ['https://cdn.test/a.jpg'],
    });
    const { id, variants } = created.body.data;
    await expectCurrentDocument(store, id);
    // the create's own ETag is the one GET sends from the document
    expect(created.headers.etag).toBe((await t.call(store, 'GET', `/products/${id}`)).headers.etag);

    await t.call(store, 'PATCH', `/products/${id}`, { title: 'Tee 2', returnConfig: { returnable: false } });
    await expectCurrentDocument(store, id);
    await t.call(store, 'PATCH', `/products/${id}/variants/${variants[0].id}`, { stock: 5, sku: 'TEE-1' });
    await expectCurrentDocument(store, id);
    const collection = await t.call(store, 'POST', '/collections', { title: 'Summer', selectedProducts: [id] });
    expect(collection.status).toBe(201);
    await expectCurrentDocument(store, id);
    const order = await t.call(store, 'POST', '/orders', {
      cartItems: [{ productId: id, title: 'Tee', price: 9.9, quantity: 2, sku: 'TEE-1' }],
      subTotal: 19.8,
      totalAmount: 19.8,
      inventoryBehaviour: 'decrement',
    });
    expect(order.status).toBe(201);
    await expectCurrentDocument(store, id);
    expect((await t.call(store, 'GET', `/products/${id}`)).body.data.variants[0].stock).toBe(3);
  });

  it('a change past the write door leaves the document unused: GET builds the product from its rows', async () => {
    const store = await t.newStore();
    const { id } = (await t.call(store, 'POST', '/products', { title: 'Cap', price: 5 })).body.data;
    await sql`UPDATE products SET title = 'Changed by a script' WHERE store_id = ${store.id} AND id = ${id}`.execute(t.database.db);
    expect(await storedProduct(t.database.db, store.id, id)).toBeUndefined();
    const read = await t.call(store, 'GET', `/products/${id}`);
    expect(read.body.data.title).toBe('Changed by a script');
    expect(read.headers.etag).toBe(etagOf(read.body.data));
    // the next write through the API stores a current document again
    await t.call(store, 'PATCH', `/products/${id}`, { price: 6 });
    await expectCurrentDocument(store, id);
  });

  it('lists send the current documents, and build a product whose document is stale or missing from its rows', async () => {
    const store = await t.newStore();
    const ids: string[] = [];
    for (const title of ['Lamp', 'Desk', 'Chair', 'Shelf'])
      ids.push((await t.call(store, 'POST', '/products', { title, price: 9, options: OPTIONS })).body.data.id);
    const collection = (await t.call(store, 'POST', '/collections', { title: 'Room', selectedProducts: ids })).body.data;
    // past the write door: one row changed (its document is stale), one document gone
    await sql`UPDATE products SET title = 'Changed by a script' WHERE store_id = ${store.id} AND id = ${ids[1]}`.execute(t.database.db);
    await sql`DELETE FROM product_documents WHERE store_id = ${store.id} AND product_id = ${ids[2]}`.execute(t.database.db);
    // a document that is current but not what the rows give: only a list reading documents can show it
    const marked = JSON.stringify({ ...(await getProduct(t.database.db, store.id, ids[3])), badge: 'from the document' });
    await sql`UPDATE product_documents SET body = ${marked} WHERE store_id = ${store.id} AND product_id = ${ids[3]}`.execute(t.database.db);
    const built = await Promise.all(ids.map((id) => getProduct(t.database.db, store.id, id)));
    const expected = [...built.slice(0, 3), { ...built[3], badge: 'from the document' }].reverse();
    // every product's SKUs hold a dash: the search matches all four
    for (const path of ['/products?limit=10', `/collections/${collection.id}/products?limit=10`, '/products?limit=10&search=-']) {
      const list = await t.call(store, 'GET', path);
      expect(list.status).toBe(200);
      expect(list.headers['content-type']).toMatch(/^application\/json/);
      expect(list.body.pagination).toMatchObject({ page: 1, limit: 10, total: 4, totalPages: 1, nextCursor: null });
      expect(list.body.data).toEqual(expected);
    }
    expect((await t.call(store, 'GET', '/products?limit=10')).body.data[2].title).toBe('Changed by a script');
  });

  it('the ETag GET sends from the document guards a write (If-Match) and answers If-None-Match with 304', async () => {
    const store = await t.newStore();
    const { id } = (await t.call(store, 'POST', '/products', { title: 'Bag', price: 20 })).body.data;
    const { etag } = (await t.call(store, 'GET', `/products/${id}`)).headers;
    expect((await t.call(store, 'GET', `/products/${id}`, undefined, { 'if-none-match': String(etag) })).status).toBe(304);
    expect((await t.call(store, 'PATCH', `/products/${id}`, { price: 21 }, { 'if-match': String(etag) })).status).toBe(200);
    expect((await t.call(store, 'PATCH', `/products/${id}`, { price: 22 }, { 'if-match': String(etag) })).status).toBe(412);
  });

  it('a deleted product has no document, and another store cannot read one', async () => {
    const store = await t.newStore();
    const other = await t.newStore();
    const { id } = (await t.call(store, 'POST', '/products', { title: 'Mug' })).body.data;
    expect((await t.call(other, 'GET', `/products/${id}`)).status).toBe(404);
    expect((await t.call(store, 'DELETE', `/products/${id}`)).status).toBe(200);
    expect((await t.call(store, 'GET', `/products/${id}`)).status).toBe(404);
    const { rows } = await sql`SELECT 1 FROM product_documents WHERE store_id = ${store.id}`.execute(t.database.db);
    expect(rows).toHaveLength(0);
  });

  it('rebuilding writes the documents that are missing or stale, and only those', async () => {
    const store = await t.newStore();
    const ids: string[] = [];
    for (const title of ['A', 'B', 'C', 'D', 'E'])
      ids.push((await t.call(store, 'POST', '/products', { title, options: OPTIONS })).body.data.id);
    await sql`DELETE FROM product_documents WHERE store_id = ${store.id} AND product_id IN (${ids[0]}, ${ids[3]})`.execute(t.database.db);
    await sql`UPDATE products SET badge = 'new' WHERE store_id = ${store.id} AND id = ${ids[4]}`.execute(t.database.db);
    expect(await rebuildProductDocuments(t.database.db, store.id, 2)).toBe(3);
    for (const id of ids) await expectCurrentDocument(store, id);
    expect(await rebuildProductDocuments(t.database.db, store.id, 2)).toBe(0);
  });
});
