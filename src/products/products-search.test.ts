import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { planWork, statementsOf } from '../../test/support/statements.js';
import { productsInCollection } from '../collections/index.js';
import type { Db } from '../db/index.js';
import { newId } from '../shared/index.js';
import type { ProductListQuery } from './products.schema.js';
import { listProducts } from './products.service.js';

/**
 * Searched and narrowed lists on data shaped like a real store: the matches are the oldest
 * products and hundreds of newer ones match nothing (just created through the API). The shape that
 * walked the sort index betting on early matches compared every newer product with every match; the
 * result was right but the work grew with their product. Here the result is checked exactly, and the
 * plan's work (rows its nodes produced or discarded, times their loops) must stay within a multiple
 * of the store's rows — also when the planner is pushed to walk the sort index (enable_sort off).
 */

let t: TestContext;
let store: TestStore;
let other: TestStore;
const MATCHES = 30;
const NEWER = 270;
/** the matching products' ids, oldest first */
let matchIds: string[] = [];
let otherIds: string[] = [];
let smartId: string;

interface Row {
  title: string;
  price: number;
  status?: 'active' | 'disabled';
  sku?: string;
}

/** Inserts products (and a variant when `sku` is given) created one second apart from `start`: fast, and the order is exact. */
async function insert(db: Db, storeId: string, rows: Row[], start: number): Promise<string[]> {
  const ids = rows.map(() => newId());
  const at = (k: number) => new Date(start + k * 1000);
  const products = rows.map((row, k) => ({
    store_id: storeId,
    id: ids[k],
    title: row.title,
    handle: `${row.title.toLowerCase().replace(/\W+/g, '-')}-${k}`,
    status: row.status ?? 'active',
    price: row.price,
    return_config: '{}',
    created_at: at(k),
    updated_at: at(k),
  }));
  await db.insertInto('products').values(products).execute();
  const variants = rows.flatMap((row, k) =>
    row.sku
      ? [
          {
            store_id: storeId,
            id: newId(),
            product_id: ids[k],
            position: 0,
            attributes: '{}',
            price: row.price,
            sku: row.sku,
            sale_price: null,
            created_at: at(k),
            updated_at: at(k),
          },
        ]
      : [],
  );
  if (variants.length) await db.insertInto('variants').values(variants).execute();
  return ids;
}

beforeAll(async () => {
  t = await setupTestApp();
  [store, other] = [await t.newStore(), await t.newStore()];
  const db = t.database.db;
  const start = Date.parse('2024-01-01T00:00:00Z');
  // 24 match by title (cheap, active), 6 only by a variant SKU; then the newer products, none matching.
  const matching: Row[] = Array.from({ length: MATCHES }, (_, k) =>
    k % 5 === 4 ? { title: `Plain ${k}`, price: 50 + k, sku: `SKU-NEEDLE-${k}` } : { title: `Needle ${k}`, price: 10 + k },
  );
  matchIds = await insert(db, store.id, matching, start);
  const newer: Row[] = Array.from({ length: NEWER }, (_, k) => ({
    title: `Haystack ${k}`,
    price: 500 + k,
    status: k % 3 ? 'active' : 'disabled',
  }));
  await insert(db, store.id, newer, start + MATCHES * 1000);
  // Another store whose matches are the newest of all: they must never show in the first store.
  otherIds = await insert(
    db,
    other.id,
    Array.from({ length: 20 }, (_, k) => ({ title: `Needle other ${k}`, price: 5 })),
    start + 10_000_000,
  );
  const smart = await t.call(store, 'POST', '/collections', {
    title: 'Cheap',
    collectionType: 'smart',
    conditions: [
      { field: 'price', operator: 'less_than', value: '100' },
      { field: 'status', operator: 'equals', value: 'ACTIVE' },
    ],
  });
  smartId = smart.body.data.id;
  // Statistics as a live store has them (the plans stayed bad after ANALYZE).
  await sql`ANALYZE products`.execute(db);
  await sql`ANALYZE variants`.execute(db);
});
afterAll(() => t.close());

async function pages(who: TestStore, query: string, limit: number) {
  const ids: string[] = [];
  const totals = new Set<number>();
  for (let page = 1; ; page++) {
    const res = await t.call(who, 'GET', `/products?${query}&limit=${limit}&page=${page}`);
    expect(res.status).toBe(200);
    totals.add(res.body.pagination.total);
    if (res.body.data.length === 0) break;
    ids.push(...res.body.data.map((p: { id: string }) => p.id));
  }
  return { ids, totals: [...totals] };
}

describe('search and smart collections when the matches are the oldest products', () => {
  it('lists every match exactly once, in sort order, with the exact total on every page', async () => {
    const newestFirst = [...matchIds].reverse();
    expect(await pages(store, 'search=needle', 7)).toEqual({ ids: newestFirst, totals: [MATCHES] });
    expect(await pages(store, 'search=NEEDLE&sort=createdAt', 4)).toEqual({ ids: matchIds, totals: [MATCHES] });
    const byPrice = await pages(store, 'search=needle&sort=-price', 9);
    expect(byPrice.totals).toEqual([MATCHES]);
    expect(new Set(byPrice.ids)).toEqual(new Set(matchIds));
    const prices = (await t.call(store, 'GET', '/products?search=needle&sort=-price&limit=250')).body.data.map(
      (p: { price: number }) => p.price,
    );
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
    // a page past the end still carries the exact total
    const past = await t.call(store, 'GET', '/products?search=needle&page=9&limit=7');
    expect(past.body).toMatchObject({ data: [], pagination: { page: 9, limit: 7, total: MATCHES, totalPages: 5 } });
    // combined with an exact filter: the SKU-only matches are the five priced 54, 59, …
    const filtered = await t.call(store, 'GET', '/products?search=sku-needle&status=active&sort=price');
    expect(filtered.body.data.map((p: { price: number }) => p.price)).toEqual([54, 59, 64, 69, 74, 79]);
  });

  it('never shows another store its matches, nor counts them', async () => {
    expect(await pages(other, 'search=needle', 8)).toEqual({ ids: [...otherIds].reverse(), totals: [20] });
    const mine = await pages(store, 'search=needle%20other', 5);
    expect(mine).toEqual({ ids: [], totals: [0] });
  });

  it('lists a smart collection (price < 100 and status equals ACTIVE) exactly', async () => {
    const members = await pages(store, `collection=${smartId}`, 6);
    expect(members).toEqual({ ids: [...matchIds].reverse(), totals: [MATCHES] });
    const viaCollection = await t.call(store, 'GET', `/collections/${smartId}/products?limit=250&sort=createdAt`);
    expect(viaCollection.body.data.map((p: { id: string }) => p.id)).toEqual(matchIds);
    expect(viaCollection.body.pagination.total).toBe(MATCHES);
  });

  it('does work bounded by the store size on every page, whatever the planner prefers', async () => {
    const storeRows = MATCHES + NEWER + MATCHES / 5;
    const query = (page: number, search?: string) =>
      ({ page, limit: 10, sort: '-createdAt', ...(search ? { search } : {}) }) as ProductListQuery;
    const reads: [string, (db: Db) => Promise<unknown>][] = [
      ['search p1', (db) => listProducts(db, store.id, query(1, 'needle'))],
      ['search p2', (db) => listProducts(db, store.id, query(2, 'needle'))],
      [
        'smart p2',
        async (db) =>
          listProducts(db, store.id, query(2), { condition: await productsInCollection(db, store.id, smartId), collectionId: smartId }),
      ],
    ];
    for (const walkSortIndex of [false, true]) {
      await t.database.db.transaction().execute(async (trx) => {
        // Sorting made expensive: the planner's strongest reason to walk the sort index and test rows as it goes.
        if (walkSortIndex) await sql`SET LOCAL enable_sort = off`.execute(trx);
        for (const [name, read] of reads) {
          for (const statement of await statementsOf(trx, read)) {
            const work = await planWork(trx, statement);
            expect(work, `${name}${walkSortIndex ? ' (enable_sort off)' : ''}: ${statement.sql.slice(0, 60)}`).toBeLessThan(10 * storeRows);
          }
        }
      });
    }
  });
});
