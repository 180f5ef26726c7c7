import { CompiledQuery, type KyselyPlugin, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, expectError, setupTestApp, type TestContext, type TestStore, testDatabaseUrl } from '../../test/helpers.js';
import { statementsOf } from '../../test/support/statements.js';
import { type Db, openDatabase } from '../db/database.js';
import { getProductsByIds, listProducts, listProductTexts } from './products.service.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const titles = (res: { body: { data: { title: string }[] } }) => res.body.data.map((p) => p.title);

async function seed(store: TestStore) {
  const items = [
    { title: 'banana', price: 3, handle: 'yellow-fruit' },
    { title: 'Apple', price: 1.5, status: 'disabled' },
    { title: 'cherry_100', price: 10 },
    { title: 'Date 50%', price: 1.5 },
    { title: 'elderberry', options: [{ name: 'Pack', values: ['Six', 'Dozen'] }] },
  ];
  const ids: string[] = [];
  for (const item of items) ids.push((await t.call(store, 'POST', '/products', item)).body.data.id);
  return ids;
}

describe('products: list', () => {
  it('paginates and sorts by createdAt, price and title with ties broken by id', async () => {
    const store = await t.newStore();
    await seed(store);
    const newest = await t.call(store, 'GET', '/products');
    expect(titles(newest)).toEqual(['elderberry', 'Date 50%', 'cherry_100', 'Apple', 'banana']);
    expect(newest.body.pagination).toEqual({ page: 1, limit: 25, total: 5, totalPages: 1, nextCursor: null });
    expect(titles(await t.call(store, 'GET', '/products?sort=createdAt'))).toEqual([
      'banana',
      'Apple',
      'cherry_100',
      'Date 50%',
      'elderberry',
    ]);
    expect(titles(await t.call(store, 'GET', '/products?sort=title'))).toEqual(['Apple', 'banana', 'cherry_100', 'Date 50%', 'elderberry']);
    expect(titles(await t.call(store, 'GET', '/products?sort=-title&limit=2'))).toEqual(['elderberry', 'Date 50%']);
    const byPrice = await t.call(store, 'GET', '/products?sort=price');
    expect(byPrice.body.data.map((p: { price: number | null }) => p.price)).toEqual([1.5, 1.5, 3, 10, null]);
    const page = await t.call(store, 'GET', '/products?sort=title&limit=2&page=3');
    expect(titles(page)).toEqual(['elderberry']);
    expect(page.body.pagination).toEqual({ page: 3, limit: 2, total: 5, totalPages: 3, nextCursor: null });
    const past = await t.call(store, 'GET', '/products?page=7');
    expect(past.body.data).toEqual([]);
    expect(past.body.pagination.total).toBe(5);
  });

  it('searches title, handle and variant SKUs case-insensitively, % and _ literally', async () => {
    const store = await t.newStore();
    await seed(store);
    expect(titles(await t.call(store, 'GET', '/products?search=APPLE'))).toEqual(['Apple']);
    expect(titles(await t.call(store, 'GET', '/products?search=ellow-FR'))).toEqual(['banana']);
    expect(titles(await t.call(store, 'GET', '/products?search=berry-DOZE'))).toEqual(['elderberry']);
    expect(titles(await t.call(store, 'GET', `/products?search=${encodeURIComponent('50%')}`))).toEqual(['Date 50%']);
    expect(titles(await t.call(store, 'GET', '/products?search=y_1'))).toEqual(['cherry_100']);
    expect(titles(await t.call(store, 'GET', '/products?search=nothing-matches'))).toEqual([]);
  });

  it('filters by exact handle and status, and returns full products', async () => {
    const store = await t.newStore();
    await seed(store);
    const byHandle = await t.call(store, 'GET', '/products?handle=yellow-fruit');
    expect(titles(byHandle)).toEqual(['banana']);
    expect(titles(await t.call(store, 'GET', '/products?handle=yellow'))).toEqual([]);
    expect(titles(await t.call(store, 'GET', '/products?status=disabled'))).toEqual(['Apple']);
    expect((await t.call(store, 'GET', '/products?status=active')).body.pagination.total).toBe(4);
    const withVariants = (await t.call(store, 'GET', '/products?search=elderberry')).body.data[0];
    expect(withVariants.variants.map((v: { sku: string }) => v.sku)).toEqual(['elderberry-six', 'elderberry-dozen']);
    expect(withVariants).toEqual((await t.call(store, 'GET', `/products/${withVariants.id}`)).body.data);
  });

  it('rejects bad list parameters', async () => {
    const store = await t.newStore();
    for (const query of ['page=0', 'limit=251', 'limit=0', 'limit=1.5', 'sort=name', 'sort=-stock', 'status=archived']) {
      const error = expectError(await t.call(store, 'GET', `/products?${query}`), 400, 'VALIDATION_ERROR');
      expect(error.details[0].in).toBe('query');
    }
  });

  it('filters by collection membership, manual or smart, and shows selectedCollection', async () => {
    const store = await t.newStore();
    const [banana, , cherry] = await seed(store);
    const manual = (await t.call(store, 'POST', '/collections', { title: 'Picks' })).body.data;
    const smart = (
      await t.call(store, 'POST', '/collections', {
        title: 'Cheap',
        collectionType: 'smart',
        conditions: [{ field: 'price', operator: 'less_than', value: '2' }],
      })
    ).body.data;
    const linked = await t.call(store, 'PATCH', `/products/${banana}`, { selectedCollections: [manual.id] });
    expect(linked.body.data.selectedCollection).toEqual([manual.id]);
    const created = await t.call(store, 'POST', '/products', { title: 'fig', selectedCollections: [manual.id] });
    expect(created.body.data.selectedCollection).toEqual([manual.id]);
    expect(titles(await t.call(store, 'GET', `/products?collection=${manual.id}&sort=title`))).toEqual(['banana', 'fig']);
    expect(titles(await t.call(store, 'GET', `/products?collection=${smart.id}&sort=title`))).toEqual(['Apple', 'Date 50%']);
    expect((await t.call(store, 'GET', `/products?collection=${'0'.repeat(24)}`)).body.data).toEqual([]);
    const wrong = expectError(
      await t.call(store, 'PATCH', `/products/${cherry}`, { selectedCollections: [smart.id] }),
      400,
      'VALIDATION_ERROR',
    );
    expect(wrong.details[0].field).toBe('selectedCollections[0]');
    const other = await t.newStore();
    expect((await t.call(other, 'GET', `/products?collection=${manual.id}`)).body.data).toEqual([]);
    await t.call(store, 'DELETE', `/products/${banana}`);
    expect(titles(await t.call(store, 'GET', `/products?collection=${manual.id}`))).toEqual(['fig']);
  });
});

/** A view of the database that counts the statements it runs. */
function counting(db: Db): { db: Db; count: () => number } {
  let statements = 0;
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      statements += 1;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { db: db.withPlugin(plugin), count: () => statements };
}

describe('products: lean reads', () => {
  it('loads a page or a set of products in a fixed number of queries, whatever their size', async () => {
    const store = await t.newStore();
    const collection = (await t.call(store, 'POST', '/collections', { title: 'All' })).body.data;
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const body = { title: `P${i}`, options: [{ name: 'Size', values: ['S', 'M'] }], selectedCollections: [collection.id] };
      ids.push((await t.call(store, 'POST', '/products', body)).body.data.id);
    }
    const statements = async (run: (db: Db) => Promise<unknown>) => {
      const view = counting(t.database.db);
      await run(view.db);
      return view.count();
    };
    const query = { page: 1, sort: '-createdAt' as const };
    const small = await statements((db) => listProducts(db, store.id, { ...query, limit: 1 }));
    const large = await statements((db) => listProducts(db, store.id, { ...query, limit: 12 }));
    expect(large).toBe(small);
    // one statement: the page with its total, variants and collection ids as columns
    expect(large).toBe(1);
    // the stored documents, with the total, while they are current
    expect(await statements((db) => listProductTexts(db, store.id, { ...query, limit: 12 }))).toBe(1);
    const one = await statements((db) => getProductsByIds(db, store.id, ids.slice(0, 1)));
    const all = await statements((db) => getProductsByIds(db, store.id, ids));
    expect(all).toBe(one);
    expect(one).toBe(1);
    const loaded = await getProductsByIds(t.database.db, store.id, [ids[3], 'nope', ids[1]]);
    expect(loaded.map((p) => p.id)).toEqual([ids[3], ids[1]]);
    expect(loaded[0].variants).toHaveLength(2);
    expect(loaded[0].selectedCollection).toEqual([collection.id]);
  });

  it.each([
    ['-createdAt', 'products_created_idx'],
    ['price', 'products_price_idx'],
    // migrations/0130: the expression index includes title, else each skipped row is read from the table
    ['title', 'products_title_sort_idx'],
    ['-title', 'products_title_sort_idx'],
  ])('finds the ids of a page past the first sorted by %s by the sort index alone (an index-only scan of %s)', async (sort, index) => {
    const store = await t.newStore();
    for (let i = 0; i < 6; i++) expect((await t.call(store, 'POST', '/products', { title: `Walk ${i}`, price: i })).status).toBe(201);
    const [page] = await statementsOf(t.database.db, (db) => listProductTexts(db, store.id, { page: 3, limit: 2, sort }));
    const plan = await t.database.db.transaction().execute(async (trx) => {
      // a 6-row store would be read whole by any planner: ask what the walk does at scale
      await sql`SET LOCAL enable_seqscan = off`.execute(trx);
      await sql`SET LOCAL enable_bitmapscan = off`.execute(trx);
      const explained = await trx.executeQuery(CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${page.sql}`, [...page.parameters]));
      return JSON.stringify(explained.rows);
    });
    // the offset is walked in products_created_idx; reading each skipped product's row (an Index Scan) cost page 41 a heap page per row
    expect(plan).toMatch(new RegExp(`"Node Type":"Index Only Scan"[^{}]*"Index Name":"${index}"`));
  });
});

describe.runIf(engine === 'postgres')('products: pages of a list without filters (PostgreSQL)', () => {
  it('run past the first page with the plan made once per session, which knows the page size (src/db/statements/generic-plan.ts)', async () => {
    const store = await t.newStore();
    for (let i = 0; i < 30; i++) expect((await t.call(store, 'POST', '/products', { title: `Generic ${i}`, price: i })).status).toBe(201);
    // one connection: the runs and pg_prepared_statements are of one session
    const database = await openDatabase({ databaseUrl: testDatabaseUrl(), dataDir: '', poolSize: 1 });
    try {
      const query = { page: 2, limit: 25, sort: '-price' } as const;
      const pages = [];
      for (let n = 0; n < 3; n++)
        pages.push((await listProductTexts(database.db, store.id, query)).texts.map((text) => JSON.parse(text).price));
      expect(pages).toEqual([0, 1, 2].map(() => [4, 3, 2, 1, 0]));
      const plans = await sql<{ generic: number; custom: number; statement: string }>`select generic_plans::int as generic,
        custom_plans::int as custom, statement from pg_prepared_statements
        where statement like '%sf:generic-plan%' and statement like '%offset%'`.execute(database.db);
      // the first run prepared it (with its values); the two after it used the generic plan
      expect(plans.rows.map(({ generic, custom }) => ({ generic, custom }))).toEqual([{ generic: 2, custom: 1 }]);
      // Made without the OFFSET, the plan still knows the page's size: a literal LIMIT (with `LIMIT $n` it assumed 10%
      // of the store's rows and hashed a scan of the whole table: docs/performance-history/notebook.md, 204 ms for page 41)
      expect(plans.rows[0].statement).toMatch(/\blimit 26 offset \$\d+\)/);
    } finally {
      await database.close();
    }
  });
});
