import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { readsBehindLock } from '../../test/support/reads-behind-lock.js';

/**
 * GET /products/{id}: the reads of one store's stored documents that concurrent requests make together go to
 * the database as one statement (src/reads/stored-documents.ts, storedDocument), each request answered with
 * its own product, and a batch never holds another store's reads. While a store's batch is in flight, the reads
 * that arrive wait for it and go together as the next.
 */

let t: TestContext;
/** Each batched read sent: its store and the ids it asked for. */
const batches: { storeId: unknown; ids: unknown }[] = [];
beforeAll(async () => {
  t = await setupTestApp({}, (text, parameters) => {
    if (/FROM "product_documents" d/.test(text) && /= ANY\(/.test(text)) batches.push({ storeId: parameters[0], ids: parameters[1] });
    return undefined;
  });
});
afterAll(() => t.close());

async function createProducts(store: TestStore, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const created = await t.call(store, 'POST', '/products', { title: `Batched ${i}`, price: 10 + i });
    expect(created.status).toBe(201);
    ids.push(created.body.data.id);
  }
  return ids;
}

describe('GET /products/{id} read in batches', () => {
  it('answers concurrent requests of one store from fewer statements than requests, each with its own product', async () => {
    const store = await t.newStore();
    const ids = await createProducts(store, 6);
    await t.call(store, 'GET', `/products/${ids[0]}`);
    batches.length = 0;
    const reads = await Promise.all(ids.map((id) => t.call(store, 'GET', `/products/${id}`)));
    expect(reads.map((read) => [read.status, read.body.data.id])).toEqual(ids.map((id) => [200, id]));
    expect(batches.every((batch) => batch.storeId === store.id)).toBe(true);
    expect(batches.flatMap((batch) => batch.ids as string[]).sort()).toEqual([...ids].sort());
    expect(batches.length).toBeLessThan(ids.length);
  });

  it('sends the reads that arrive while a batch is in flight together, once it is answered', async () => {
    const store = await t.newStore();
    const ids = await createProducts(store, 5);
    await t.call(store, 'GET', `/products/${ids[0]}`);
    batches.length = 0;
    // The first batch waits on a lock of the documents, so the reads that follow arrive while it is in flight.
    const reads = await readsBehindLock(
      t.database.db,
      'product_documents',
      () => t.call(store, 'GET', `/products/${ids[0]}`),
      ids.slice(1).map((id) => () => t.call(store, 'GET', `/products/${id}`)),
    );
    expect(reads.map((read) => [read.status, read.body.data.id])).toEqual(ids.map((id) => [200, id]));
    expect(batches.flatMap((batch) => batch.ids as string[]).sort()).toEqual([...ids].sort());
    // The first batch and the one that gathered behind it (each read in a statement of its own before).
    expect(batches.length).toBeLessThanOrEqual(2);
  });

  it("keeps each store's reads in its own statement: another store's id is not found", async () => {
    const [a, b] = [await t.newStore(), await t.newStore()];
    const [idA] = await createProducts(a, 1);
    const [idB] = await createProducts(b, 1);
    batches.length = 0;
    const [ownA, ownB, crossA, crossB] = await Promise.all([
      t.call(a, 'GET', `/products/${idA}`),
      t.call(b, 'GET', `/products/${idB}`),
      t.call(a, 'GET', `/products/${idB}`),
      t.call(b, 'GET', `/products/${idA}`),
    ]);
    expect([ownA.status, ownA.body.data.id, ownB.status, ownB.body.data.id]).toEqual([200, idA, 200, idB]);
    expect([crossA.status, crossB.status]).toEqual([404, 404]);
    for (const batch of batches) expect([a.id, b.id]).toContain(batch.storeId);
    expect(new Set(batches.map((batch) => batch.storeId)).size).toBe(2);
  });
});
