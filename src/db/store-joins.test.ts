import { createServer, type Server } from 'node:http';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext } from '../../test/helpers.js';
import { runStoreJobs } from '../../test/support/jobs.fixtures.js';
import { type StoreColumns, untiedRelations } from '../../test/support/store-joins.js';
import { walkEverything } from '../../test/support/walk-everything.js';

/**
 * No statement joins across stores (docs/scaling.md, Citus): every statement a walkthrough of every
 * resource's operations sends (requests, an import run by the job runner, webhook deliveries made, sent
 * and recorded by the worker) is recorded below Kysely (the database's statement observer, the hook
 * tracing uses), and each one that names two or more store-owned tables must tie their store columns
 * together (test/support/store-joins.ts). The companion of store-keys.test.ts.
 */

const sent = new Map<string, readonly unknown[]>();
let t: TestContext;
let storeColumns: Map<string, string>;
let receiver: Server;
let hookUrl: string;

beforeAll(async () => {
  receiver = createServer((request, response) => request.resume().on('end', () => response.writeHead(204).end()));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  t = await setupTestApp({ webhookWorker: true, webhookAllowPrivate: true, webhookTimeoutMs: 5000 }, (text, parameters) => {
    if (!sent.has(text)) sent.set(text, parameters);
    return undefined;
  });
  const { rows } = await sql<{ table_name: string }>`
    SELECT DISTINCT table_name FROM information_schema.columns
    WHERE table_schema = 'public' AND column_name = 'store_id'`.execute(t.database.db);
  // `stores` is the store itself: its id is the store column the others refer to.
  storeColumns = new Map([...rows.map((row) => [row.table_name, 'store_id'] as const), ['stores', 'id']]);
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => receiver.close(resolve));
});

const problemsOf = (text: string, columns: StoreColumns = storeColumns) => untiedRelations(text, columns);

describe('the store-join check', () => {
  const columns: StoreColumns = new Map([
    ['products', 'store_id'],
    ['variants', 'store_id'],
    ['orders', 'store_id'],
    ['stores', 'id'],
  ]);

  it('passes statements that tie every store-owned table to one store', async () => {
    for (const good of [
      'SELECT * FROM products p JOIN variants v ON v.store_id = p.store_id AND v.product_id = p.id WHERE p.store_id = $1',
      'SELECT * FROM products p, variants v WHERE p.store_id = $1 AND v.store_id = $1 AND v.product_id = p.id',
      'SELECT * FROM products p WHERE p.store_id = $1 AND EXISTS (SELECT 1 FROM variants v WHERE v.store_id = p.store_id AND v.product_id = p.id)',
      'INSERT INTO variants (store_id, id, product_id) SELECT store_id, $2, id FROM products WHERE store_id = $1 AND id = $3',
      'WITH picked AS (SELECT store_id, id FROM products WHERE store_id = $1) SELECT * FROM picked JOIN variants v ON v.store_id = picked.store_id',
      'SELECT * FROM stores s JOIN orders o ON o.store_id = s.id WHERE s.id = $1',
      'SELECT * FROM products WHERE store_id = $1 AND id = $2',
      // across stores on purpose, but one table: not a join
      'UPDATE orders SET status = $1 WHERE created_at < now()',
    ])
      expect(await problemsOf(good, columns), good).toEqual([]);
  });

  it('fails statements whose tables may come from different stores', async () => {
    for (const bad of [
      // joined on the product id alone: a variant of another store with a colliding id would join
      'SELECT * FROM products p JOIN variants v ON v.product_id = p.id WHERE p.store_id = $1',
      // each constrained, to possibly different stores
      'SELECT * FROM products p JOIN variants v ON v.product_id = p.id WHERE p.store_id = $1 AND v.store_id = $2',
      // the tie is under OR: it does not constrain
      'SELECT * FROM products p, variants v WHERE p.store_id = $1 AND (v.store_id = p.store_id OR v.id = $2)',
      // a subquery reaching into every store
      'SELECT * FROM products p WHERE p.store_id = $1 AND EXISTS (SELECT 1 FROM orders o WHERE o.id = p.id)',
      // rows copied from one store into another
      'INSERT INTO variants (store_id, id, product_id) SELECT $1, id, id FROM products WHERE store_id = $2',
      // a CTE of another store joined in
      'WITH picked AS (SELECT store_id, id FROM products WHERE store_id = $2) SELECT * FROM picked JOIN variants v ON v.id = picked.id WHERE v.store_id = $1',
      'SELECT * FROM stores s JOIN orders o ON o.id = s.id WHERE s.id = $1',
    ])
      expect((await problemsOf(bad, columns)).length, bad).toBe(1);
  });
});

describe('every statement of a walkthrough of every resource', () => {
  it('joins store-owned tables within one store only', async () => {
    const store = await t.newStore();
    // The walkthrough itself must have worked, or it proves nothing.
    expect(await walkEverything(t, store, { hookUrl, runJobs: () => runStoreJobs(t, store) })).toEqual([]);

    const joined: string[] = [];
    const untied: string[] = [];
    for (const [text, parameters] of sent) {
      const tables = [...storeColumns.keys()].filter((table) => new RegExp(`\\b${table}\\b`).test(text));
      if (tables.length < 2) continue;
      joined.push(text);
      for (const problem of await untiedRelations(text, storeColumns, parameters)) untied.push(`${problem}\n  in: ${text}`);
    }
    expect(untied).toEqual([]);
    // what was checked: many statements, dozens naming several store-owned tables
    expect(sent.size).toBeGreaterThan(150);
    expect(joined.length).toBeGreaterThan(20);
  }, 120_000);
});
