import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Reply, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { statementsOf } from '../../test/support/statements.js';
import { rebuildCustomerDocuments } from '../customers/customers.documents.js';
import { listCustomerTexts } from '../customers/customers.service.js';

/**
 * Pages of one list asked in the same turn are read in one statement (list-pages.ts), each from its nearer end:
 * every page of the batch is the rows a keyset cursor walk (no offset, no batch) finds there, with the total.
 */

let t: TestContext;
let store: TestStore;
const ROWS = 3_010;
const LIMIT = 25;

beforeAll(async () => {
  t = await setupTestApp();
  store = await t.newStore();
  // Past FAR_END_FROM_OFFSET rows, with ties on created_at (broken by id).
  await sql`INSERT INTO customers (store_id, id, user_name, email, custom_fields, created_at, updated_at)
    SELECT ${store.id}, lpad(to_hex(g), 24, '0'), 'pages' || g, 'pages' || g || '@mail.test', '{}'::jsonb,
      timestamptz '2025-01-01' + (g % 700) * interval '1 minute', timestamptz '2025-01-01'
    FROM generate_series(1, ${ROWS}) AS g`.execute(t.database.db);
  await rebuildCustomerDocuments(t.database.db, store.id);
}, 240_000);
afterAll(() => t?.close());

/** Every customer id newest first, by following nextCursor. */
async function cursorWalk(): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const reply: Reply = await t.call(store, 'GET', `/customers?limit=250${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(reply.status).toBe(200);
    ids.push(...reply.body.data.map((row: { id: string }) => row.id));
    cursor = reply.body.pagination.nextCursor;
  } while (cursor);
  return ids;
}

describe('pages of a list asked together', () => {
  it('are read in one statement, each page the rows a cursor walk finds there', { timeout: 120_000 }, async () => {
    const all = await cursorWalk();
    expect(all.length).toBe(ROWS);
    const last = Math.ceil(ROWS / LIMIT);
    // near and far ends, the last (short) page, one past the end
    const pages = [1, 2, 60, 100, 101, 110, last, last + 1];
    let answers: Awaited<ReturnType<typeof listCustomerTexts>>[] = [];
    const statements = await statementsOf(t.database.db, async (db) => {
      answers = await Promise.all(pages.map((page) => listCustomerTexts(db, store.id, { page, limit: LIMIT, sort: '-createdAt' })));
    });
    expect(statements.filter((statement) => /\bunnest\b/.test(statement.sql)).length).toBe(1);
    pages.forEach((page, k) => {
      const ids = answers[k].texts.map((text) => (JSON.parse(text) as { id: string }).id);
      expect(ids, `page ${page}`).toEqual(all.slice((page - 1) * LIMIT, page * LIMIT));
      expect(answers[k].pagination).toMatchObject({ page, total: ROWS, totalPages: last });
      expect(answers[k].pagination.nextCursor === null, `page ${page}`).toBe(page >= last);
    });
  });

  it('are read one by one inside a transaction', async () => {
    const statements = await statementsOf(t.database.db, (db) =>
      db.transaction().execute((trx) => listCustomerTexts(trx, store.id, { page: 2, limit: LIMIT, sort: '-createdAt' })),
    );
    expect(statements.filter((statement) => /\bunnest\b/.test(statement.sql))).toEqual([]);
  });
});
