import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Reply, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { planWork, statementsOf } from '../../test/support/statements.js';
import { seedTiedProducts } from '../../test/support/tied-products.fixtures.js';
import { listProductTexts } from '../products/products.service.js';
import { FAR_END_FROM_OFFSET, farEndWalk } from './far-end.js';

/**
 * Deep pages read from the far end of their list (far-end.ts) are the pages the near end's walk reads: every
 * sort (a nullable one, ties broken by id), checked against a keyset cursor walk, which uses no offset at all.
 */

let t: TestContext;
let store: TestStore;
const LIMIT = 250;
const ROWS = 3_200;

beforeAll(async () => {
  t = await setupTestApp();
  store = await t.newStore();
  await seedTiedProducts(t, store, 'Far', ROWS);
}, 240_000);
afterAll(() => t?.close());

/** Every product id in the sort's order, by following nextCursor (keyset paging: no offset). */
async function cursorWalk(sort: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const reply: Reply = await t.call(
      store,
      'GET',
      `/products?sort=${sort}&limit=${LIMIT}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(reply.status).toBe(200);
    ids.push(...reply.body.data.map((row: { id: string }) => row.id));
    cursor = reply.body.pagination.nextCursor;
  } while (cursor);
  return ids;
}

describe('pages deep in a list, from its far end', () => {
  it.each(['-createdAt', 'createdAt', 'price', '-price', 'title', '-title'])('sorted by %s, are the rows the near end walks to', {
    timeout: 240_000,
  }, async (sort) => {
    const all = await cursorWalk(sort);
    expect(all.length).toBe(ROWS + 1);
    const pages = Math.ceil(all.length / LIMIT);
    for (let page = FAR_END_FROM_OFFSET / LIMIT; page <= pages + 1; page++) {
      const reply = await t.call(store, 'GET', `/products?sort=${sort}&limit=${LIMIT}&page=${page}`);
      expect(reply.status).toBe(200);
      expect(
        reply.body.data.map((row: { id: string }) => row.id),
        `page ${page}`,
      ).toEqual(all.slice((page - 1) * LIMIT, page * LIMIT));
      expect(reply.body.pagination).toMatchObject({ page, total: ROWS + 1, totalPages: pages });
      expect(reply.body.pagination.nextCursor === null, `page ${page}`).toBe(page >= pages);
    }
  });

  it('skips the rows after the page instead of the rows before it, in the statement that reads the total', async () => {
    const read = (page: number) =>
      statementsOf(t.database.db, (db) => listProductTexts(db, store.id, { page, limit: LIMIT, sort: 'price' }));
    const [deep, near] = [await read(12), await read(2)];
    // one round trip: the total is read by the page's own statement, not before it
    expect(deep.length).toBe(1);
    expect(deep[0].sql).toMatch(/\bunion all\b/i);
    // page 12 of 13 skips the 200 rows after it (page 2 skips 250 before it); from the near end it would skip 2,750
    const [deepWork, nearWork] = [await planWork(t.database.db, deep[0]), await planWork(t.database.db, near[0])];
    expect(deepWork - nearWork).toBeLessThan(1_000);
    expect(farEndWalk(11 * LIMIT, LIMIT + 1, ROWS + 1)).toEqual({ offset: ROWS + 1 - 11 * LIMIT - LIMIT - 1, limit: LIMIT + 1 });
  });

  it('walks from the near end where it skips fewer rows', () => {
    expect(farEndWalk(FAR_END_FROM_OFFSET - 1, 26, 1_000_000)).toBeNull();
    expect(farEndWalk(499_000, 26, 1_000_000)).toBeNull();
    expect(farEndWalk(500_000, 26, 1_000_000)).toEqual({ offset: 499_974, limit: 26 });
    expect(farEndWalk(999_990, 26, 1_000_000)).toEqual({ offset: 0, limit: 10 });
    expect(farEndWalk(1_000_000, 26, 1_000_000)).toBeNull();
  });
});
