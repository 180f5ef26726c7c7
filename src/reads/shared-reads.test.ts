import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { readsBehindLock } from '../../test/support/reads-behind-lock.js';

/**
 * Identical list reads that arrive together run once (src/reads/shared-reads.ts, sharedRead): GET /customers
 * and GET /products asked for by several clients at once cost one statement, each client gets the whole
 * answer, and nothing is shared across stores or across different queries.
 */

let t: TestContext;
/** Each list statement sent: the resource it read and its store (the statement's first parameter). */
const lists: { resource: 'customers' | 'products'; storeId: unknown }[] = [];
beforeAll(async () => {
  t = await setupTestApp({}, (text, parameters) => {
    const page = /FROM "customer_documents" d|FROM "product_documents" d/.exec(text);
    if (page && !/= ANY\(/.test(text))
      lists.push({ resource: page[0].includes('customer') ? 'customers' : 'products', storeId: parameters[0] });
    return undefined;
  });
});
afterAll(() => t.close());

let made = 0;
async function createCustomers(store: TestStore, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const created = await t.call(store, 'POST', '/customers', { userName: `shared-${++made}`, password: 'p4ssw0rd-long' });
    expect(created.status).toBe(201);
  }
}

describe('identical list reads made together', () => {
  it('run as one statement; every request gets the whole page, and a read after a write sees it', async () => {
    const store = await t.newStore();
    await createCustomers(store, 3);
    await t.call(store, 'GET', '/customers?limit=2');
    lists.length = 0;
    const pages = await Promise.all(Array.from({ length: 8 }, () => t.call(store, 'GET', '/customers?limit=2')));
    expect(pages.map((page) => page.status)).toEqual(Array(8).fill(200));
    for (const page of pages) expect(page.body).toEqual(pages[0].body);
    expect(pages[0].body.data).toHaveLength(2);
    expect(pages[0].body.pagination.total).toBe(3);
    const customerLists = lists.filter((list) => list.resource === 'customers');
    expect(customerLists.every((list) => list.storeId === store.id)).toBe(true);
    expect(customerLists.length).toBeLessThan(8);

    await createCustomers(store, 1);
    const after = await t.call(store, 'GET', '/customers?limit=2');
    expect(after.body.pagination.total).toBe(4);
  });

  it('gather while an identical read runs, and start together once it ends', async () => {
    const store = await t.newStore();
    await createCustomers(store, 3);
    await t.call(store, 'GET', '/customers?limit=2');
    lists.length = 0;
    // The first read waits on a lock of the documents, so the identical reads that follow arrive while it runs.
    const page = () => t.call(store, 'GET', '/customers?limit=2');
    const answers = await readsBehindLock(t.database.db, 'customer_documents', page, [page, page, page, page]);
    for (const page of answers) expect([page.status, page.body]).toEqual([200, answers[0].body]);
    // The first read and the one the others gathered into (a statement each before).
    expect(lists.filter((list) => list.resource === 'customers').length).toBeLessThanOrEqual(2);
  });

  it('are never shared between stores or between different queries', async () => {
    const [a, b] = [await t.newStore(), await t.newStore()];
    await createCustomers(a, 2);
    await createCustomers(b, 3);
    const [pageA, pageB, smallA, productsA] = await Promise.all([
      t.call(a, 'GET', '/customers?limit=5'),
      t.call(b, 'GET', '/customers?limit=5'),
      t.call(a, 'GET', '/customers?limit=1'),
      t.call(a, 'GET', '/products?limit=5'),
    ]);
    expect([pageA.body.pagination.total, pageB.body.pagination.total]).toEqual([2, 3]);
    expect(new Set(pageA.body.data.map((c: { id: string }) => c.id))).not.toEqual(
      new Set(pageB.body.data.map((c: { id: string }) => c.id)),
    );
    expect([pageA.body.data.length, smallA.body.data.length, productsA.body.data.length]).toEqual([2, 1, 0]);
  });

  it('GET /products: concurrent identical searches run as one statement', async () => {
    const store = await t.newStore();
    for (const title of ['Shared lamp', 'Shared chair', 'Other table']) {
      expect((await t.call(store, 'POST', '/products', { title, price: 10 })).status).toBe(201);
    }
    lists.length = 0;
    const pages = await Promise.all(Array.from({ length: 6 }, () => t.call(store, 'GET', '/products?search=shared')));
    for (const page of pages) expect(page.body).toEqual(pages[0].body);
    expect(pages[0].body.pagination.total).toBe(2);
    const productLists = lists.filter((list) => list.resource === 'products');
    expect(productLists.length).toBeGreaterThan(0);
    expect(productLists.length).toBeLessThan(6);
  });
});
