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
