import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext } from '../../test/helpers.js';
import { statementsOf } from '../../test/support/statements.js';
import type { Db } from '../db/index.js';
import type { ProductListQuery } from '../products/products.schema.js';
import { listProductTexts } from '../products/products.service.js';
import { MAX_KEPT_BYTES, MAX_MATCHES, packIds, SearchCache } from './search-cache.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const SORTS = ['-createdAt', 'createdAt', '-price', 'price', '-title', 'title'] as const;

describe('searches kept between their pages (search-cache.ts)', () => {
  it('serve every page in every order as the full search does, and see every change to a product, through the API or not', async () => {
    const store = await t.newStore();
    const ids: string[] = [];
    for (let i = 0; i < 9; i++) {
      // prices with ties and a null (the nullable sort), titles out of creation order
      const body = { title: `Lamp ${(i * 5) % 9}`, ...(i === 4 ? {} : { price: i % 3 }) };
      ids.push((await t.call(store, 'POST', '/products', body)).body.data.id);
      expect((await t.call(store, 'POST', '/products', { title: `Chair ${i}`, price: i })).status).toBe(201);
    }
    const searches = new SearchCache();
    const kept = (db: Db, query: Partial<ProductListQuery>) =>
      listProductTexts(db, store.id, { limit: 4, sort: '-createdAt', search: 'lamp', ...query } as ProductListQuery, undefined, {
        searches,
      });
    const full = (query: Partial<ProductListQuery>) =>
      listProductTexts(t.database.db, store.id, { limit: 4, sort: '-createdAt', search: 'lamp', ...query } as ProductListQuery);
    const samePages = async () => {
      for (const sort of SORTS) {
        for (const page of [1, 3])
          expect(await kept(t.database.db, { sort, page }), `${sort} page ${page}`).toEqual(await full({ sort, page }));
      }
    };
    await samePages();
    // kept: a later page is one statement, the page's rows looked up by id with the version
    const later = await statementsOf(t.database.db, (db) => kept(db, { sort: 'price', page: 2 }));
    expect(later).toHaveLength(1);
    expect(later[0].sql).toContain('unnest(');
    // through the API: a price that moves a product, a new match, a product gone
    expect((await t.call(store, 'PATCH', `/products/${ids[0]}`, { price: 7 })).status).toBe(200);
    await samePages();
    expect((await t.call(store, 'POST', '/products', { title: 'Lamp new', price: 1 })).status).toBe(201);
    expect((await t.call(store, 'DELETE', `/products/${ids[1]}`)).status).toBe(200);
    await samePages();
    expect((await kept(t.database.db, {})).pagination.total).toBe(9);
    // past the write door (a script): the catalog's version moves all the same
    await sql`UPDATE products SET price = 99 WHERE store_id = ${store.id} AND id = ${ids[2]}`.execute(t.database.db);
    await samePages();
    // descending, the null price comes first, then the 99
    expect(JSON.parse((await kept(t.database.db, { sort: '-price' })).texts[1]).id).toBe(ids[2]);
  }, 180_000);

  it('answer a page past the end from the kept total, in one statement that only reads the version', async () => {
    const store = await t.newStore();
    for (let i = 0; i < 5; i++) expect((await t.call(store, 'POST', '/products', { title: `Vase ${i}`, price: i })).status).toBe(201);
    const searches = new SearchCache();
    const kept = (db: Db, page: number) =>
      listProductTexts(db, store.id, { limit: 2, sort: 'price', search: 'vase', page } as ProductListQuery, undefined, { searches });
    const full = (page: number) =>
      listProductTexts(t.database.db, store.id, { limit: 2, sort: 'price', search: 'vase', page } as ProductListQuery);
    // nothing kept yet: the page past the end is one statement that counts and keeps the search
    const first = await statementsOf(t.database.db, (db) => kept(db, 9));
    expect(first).toHaveLength(1);
    expect((await kept(t.database.db, 9)).pagination.total).toBe(5);
    expect(await kept(t.database.db, 9)).toEqual(await full(9));
    // kept: a page past the end runs no search at all (it ran the search in full twice before)
    const later = await statementsOf(t.database.db, (db) => kept(db, 4));
    expect(later.map((statement) => statement.sql)).toEqual([expect.not.stringContaining('list_matches')]);
    expect(await kept(t.database.db, 4)).toEqual(await full(4));
    // a new match moves the version: the page is read again, with the new total
    expect((await t.call(store, 'POST', '/products', { title: 'Vase new', price: 9 })).status).toBe(201);
    expect((await kept(t.database.db, 4)).pagination.total).toBe(6);
    expect(await kept(t.database.db, 3)).toEqual(await full(3));
    // a search that matches nothing is kept too, and its pages answer as the full search does
    const none = (db: Db, page: number) =>
      listProductTexts(db, store.id, { limit: 2, sort: 'price', search: 'zebra', page } as ProductListQuery, undefined, { searches });
    expect((await none(t.database.db, 1)).pagination.total).toBe(0);
    const again = await statementsOf(t.database.db, (db) => none(db, 2));
    expect(again.map((statement) => statement.sql)).toEqual([expect.not.stringContaining('list_matches')]);
  }, 120_000);

  it('run one full search per search and order at a time: the reads that miss while it runs read what it kept', async () => {
    const store = await t.newStore();
    for (let i = 0; i < 6; i++) expect((await t.call(store, 'POST', '/products', { title: `Bowl ${i}`, price: i })).status).toBe(201);
    const searches = new SearchCache();
    const read = (db: Db, page: number) =>
      listProductTexts(db, store.id, { limit: 2, sort: '-title', search: 'bowl', page } as ProductListQuery, undefined, { searches });
    const statements = await statementsOf(t.database.db, (db) => Promise.all([1, 2, 3, 1, 2, 3, 4].map((page) => read(db, page))));
    expect(statements.filter((statement) => statement.sql.includes('list_matches'))).toHaveLength(1);
    const pages = await Promise.all([1, 2, 3, 4].map((page) => read(t.database.db, page)));
    for (const [index, page] of pages.entries())
      expect(page).toEqual(
        await listProductTexts(t.database.db, store.id, { limit: 2, sort: '-title', search: 'bowl', page: index + 1 } as ProductListQuery),
      );
  }, 120_000);

  it('keep a search of up to MAX_MATCHES matches as 12 bytes an id, and drop the oldest searches past MAX_KEPT_BYTES', () => {
    const searches = new SearchCache();
    const id = (i: number) => i.toString(16).padStart(24, '0');
    const matches = (n: number) => ({ version: '1', ids: packIds(Array.from({ length: n }, (_, i) => id(i)).join(''), n) as Buffer });
    expect(matches(3).ids).toHaveLength(36);
    // only the API's ids (24 lowercase hex digits) pack: anything else is not kept
    expect(packIds(`${id(1)}${id(0xabc).toUpperCase()}`, 2)).toBeUndefined();
    expect(packIds(id(1), 2)).toBeUndefined();
    searches.set('too many', matches(MAX_MATCHES + 1));
    expect(searches.get('too many')).toBeUndefined();
    const fit = Math.floor(MAX_KEPT_BYTES / (12 * MAX_MATCHES));
    expect(fit).toBeGreaterThanOrEqual(6); // a wide search's six orders
    for (let i = 0; i <= fit; i++) searches.set(`search ${i}`, matches(MAX_MATCHES));
    expect(searches.keptBytes).toBe(fit * 12 * MAX_MATCHES);
    expect(searches.get('search 0')).toBeUndefined();
    expect(searches.get(`search ${fit}`)?.ids.toString('hex', 12 * 99_999)).toBe(id(99_999));
  });
});
