import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { statementsOf } from '../../test/support/statements.js';
import { seedTiedProducts } from '../../test/support/tied-products.fixtures.js';
import type { Db } from '../db/index.js';
import type { ProductListQuery } from '../products/products.schema.js';
import { listProductTexts } from '../products/products.service.js';
import { type Anchors, anchorStart, PageAnchors } from './page-anchors.js';

/**
 * Deep pages started from page anchors (page-anchors.ts) are the pages the usual read gives, in every sort and
 * both directions, and a change to the catalog between two reads moves the page: the version check.
 */

let t: TestContext;
let store: TestStore;
// half the rows on pages of half the size: as many pages straddling as many anchors as before, each read half the rows
const ROWS = 1_600;
const LIMIT = 50;
// small anchors, so the pages straddle many of them; the app's are 1,000 apart from offset 2,500
const EVERY = 150;
const FROM = 250;

beforeAll(async () => {
  t = await setupTestApp();
  store = await t.newStore();
  await seedTiedProducts(t, store, 'Deep', ROWS);
}, 240_000);
afterAll(() => t?.close());

const query = (sort: string, page: number) => ({ sort, page, limit: LIMIT }) as ProductListQuery;
const anchored = (anchors: PageAnchors, sort: string, page: number, db: Db = t.database.db) =>
  listProductTexts(db, store.id, query(sort, page), undefined, { anchors });
const usual = (sort: string, page: number) => listProductTexts(t.database.db, store.id, query(sort, page));
const walks = (statements: { sql: string }[]) => statements.filter((statement) => statement.sql.includes('row_number()')).length;

describe('deep pages from page anchors', () => {
  it.each(['-createdAt', 'createdAt', 'price', '-price', 'title', '-title', 'updatedAt'])("sorted by %s, are the usual read's pages", {
    timeout: 240_000,
  }, async (sort) => {
    const anchors = new PageAnchors(EVERY, FROM);
    const pages = Math.ceil((ROWS + 1) / LIMIT);
    for (let page = FROM / LIMIT + 1; page <= pages + 1; page++) {
      expect(await anchored(anchors, sort, page), `page ${page}`).toEqual(await usual(sort, page));
    }
  });

  it('read a page in one statement that skips fewer rows than the anchors are apart, once the list is walked', async () => {
    const anchors = new PageAnchors(EVERY, FROM);
    const first = await statementsOf(t.database.db, (db) => anchored(anchors, 'price', 25, db));
    expect(walks(first)).toBe(1);
    const later = await statementsOf(t.database.db, (db) => anchored(anchors, '-price', 20, db));
    expect(later).toHaveLength(1);
    expect(later[0].sql).toContain("list = 'product_changes'");
    // -price, page 20: offset 950; descending the anchors sit at 1,601 - 150 i: 851 is the nearest, 98 rows to skip
    expect(later[0].parameters).toContain(98);
    expect(later[0].parameters).not.toContain(950);
    // ascending, before the nulls: one range of the index, no `OR key IS NULL` making it a filter from the store's first row
    const [range] = await statementsOf(t.database.db, (db) => anchored(anchors, 'price', 10, db));
    expect(range.sql).not.toMatch(/is null/i);
  });

  it('see a product created between two reads: the page moves (the version check)', async () => {
    const anchors = new PageAnchors(EVERY, FROM);
    const before = await anchored(anchors, '-createdAt', 12);
    expect(before).toEqual(await usual('-createdAt', 12));
    // the newest product comes first: every later page starts one row earlier
    expect((await t.call(store, 'POST', '/products', { title: 'Deep new', price: 2 })).status).toBe(201);
    const after = await anchored(anchors, '-createdAt', 12);
    expect(after).toEqual(await usual('-createdAt', 12));
    expect(after.texts.slice(1)).toEqual(before.texts.slice(0, -1));
    expect(after.pagination.total).toBe(before.pagination.total + 1);
  });

  it('walk the list again only once two reads found the catalog at the same new version (a write storm walks nothing)', async () => {
    const anchors = new PageAnchors(EVERY, FROM);
    const read = () => statementsOf(t.database.db, (db) => anchored(anchors, 'title', 15, db));
    expect(walks(await read())).toBe(1);
    for (let change = 0; change < 3; change++) {
      await sql`UPDATE products SET price = ${change} WHERE store_id = ${store.id} AND id = ${'1'.padStart(24, '0')}`.execute(
        t.database.db,
      );
      // stale, and a version not seen before: the usual read, no walk
      const stale = await read();
      expect(walks(stale), `change ${change}`).toBe(0);
      expect(stale.length).toBeGreaterThan(1);
    }
    // the catalog held still between two reads: walked again, then one statement per page
    expect(walks(await read())).toBe(1);
    expect(await read()).toHaveLength(1);
    expect(await anchored(anchors, 'title', 15)).toEqual(await usual('title', 15));
  });
});

describe('the anchors kept', () => {
  const anchorsOf = (n: number): Anchors => ({
    version: '1',
    total: n * 10,
    nulls: 0,
    positions: Array.from({ length: n }, (_, i) => ({ key: `key ${i}`, id: `${i}`.padStart(24, '0') })),
  });

  it('stay under their bound in bytes, the least recently used dropped', async () => {
    const anchors = new PageAnchors(10, 20, 100_000);
    for (let i = 0; i < 10; i++) await anchors.walk(`list ${i}`, async () => anchorsOf(200));
    expect(anchors.keptBytes).toBeGreaterThan(0);
    expect(anchors.keptBytes).toBeLessThanOrEqual(100_000);
    expect(anchors.get('list 0')).toBeUndefined();
    expect(anchors.get('list 9')?.positions).toHaveLength(200);
    await anchors.walk('too large', async () => anchorsOf(5_000));
    expect(anchors.get('too large')).toBeUndefined();
  });

  it('place a page after the nearest anchor before it, in both directions', () => {
    // 10 rows, an anchor every 3: ascending positions 2, 5, 8 (descending 7, 4, 1)
    const list: Anchors = { version: '1', total: 10, nulls: 0, positions: [2, 5, 8].map((p) => ({ key: `${p}`, id: `${p}` })) };
    expect(anchorStart(list, 5, 2, false, 3)).toEqual({ after: list.positions[0], skip: 2 });
    expect(anchorStart(list, 9, 2, false, 3)).toEqual({ after: list.positions[2], skip: 0 });
    expect(anchorStart(list, 2, 2, false, 3)).toBeNull();
    expect(anchorStart(list, 5, 2, true, 3)).toEqual({ after: list.positions[1], skip: 0 });
    expect(anchorStart(list, 4, 2, true, 3)).toEqual({ after: list.positions[2], skip: 2 });
    expect(anchorStart(list, 1, 2, true, 3)).toBeNull();
    expect(anchorStart(list, 10, 2, true, 3)).toBeNull();
  });

  it('leave to the usual read the pages whose rows after the anchor are not one range of the index (the nulls)', () => {
    // the same 10 rows, the last 3 of them (ascending) null: anchor 3 (position 8) is a null
    const positions = [
      { key: '2', id: '2' },
      { key: '5', id: '5' },
      { key: null, id: '8' },
    ];
    const list: Anchors = { version: '1', total: 10, nulls: 3, positions };
    expect(anchorStart(list, 3, 2, false, 3)).toEqual({ after: positions[0], skip: 0 });
    // rows 6 and 7: the second is the first null
    expect(anchorStart(list, 6, 2, false, 3)).toBeNull();
    expect(anchorStart(list, 9, 2, false, 3)).toEqual({ after: positions[2], skip: 0 });
    // descending the nulls come first: after the null anchor (descending position 1), the rest of the nulls, then the values
    expect(anchorStart(list, 3, 2, true, 3)).toBeNull();
    expect(anchorStart(list, 5, 2, true, 3)).toEqual({ after: positions[1], skip: 0 });
  });

  it('walk a list once for the requests that ask together', async () => {
    const anchors = new PageAnchors(10, 20);
    let walked = 0;
    const walk = async () => {
      walked++;
      return anchorsOf(3);
    };
    await Promise.all([anchors.walk('list', walk), anchors.walk('list', walk), anchors.walk('list', walk)]);
    expect(walked).toBe(1);
  });
});
