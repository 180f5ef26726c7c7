import { type Kysely, sql } from 'kysely';
import { expect } from 'vitest';

// biome-ignore lint/suspicious/noExplicitAny: raw SQL over any schema
type AnyDb = Kysely<any>;

interface KeyCount {
  list: string;
  key1: string;
  key2: string;
  n: number;
}

const byKey = (a: KeyCount, b: KeyCount) => `${a.list}|${a.key1}|${a.key2}`.localeCompare(`${b.list}|${b.key1}|${b.key2}`);

/**
 * What the counters say, per list and key (keys that sum to zero left out): `storeId` null for every store.
 * `product_changes` counts changes, not rows (migrations/0131: the catalog's version), so it is not among them.
 */
export async function counterTotals(db: AnyDb, storeId: string | null): Promise<(KeyCount & { store_id: string })[]> {
  const { rows } = await sql<KeyCount & { store_id: string }>`
    SELECT store_id, list, key1, key2, sum(n)::int AS n FROM list_counts
    WHERE ${storeId === null ? sql`true` : sql`store_id = ${storeId}`} AND list <> 'product_changes'
    GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0`.execute(db);
  return rows.sort((a, b) => a.store_id.localeCompare(b.store_id) || byKey(a, b));
}

/** The same figures by counting the tables themselves. */
export async function countedTotals(db: AnyDb, storeId: string | null): Promise<(KeyCount & { store_id: string })[]> {
  const scope = storeId === null ? sql`true` : sql`store_id = ${storeId}`;
  const { rows } = await sql<KeyCount & { store_id: string }>`
    SELECT store_id, 'products' AS list, status AS key1, '' AS key2, count(*)::int AS n FROM products WHERE ${scope} GROUP BY 1, 3
    UNION ALL SELECT store_id, 'orders', order_status, payment_status, count(*)::int FROM orders WHERE ${scope} GROUP BY 1, 3, 4
    UNION ALL SELECT store_id, 'attribute_sets', status, '', count(*)::int FROM attribute_sets WHERE ${scope} GROUP BY 1, 3
    UNION ALL SELECT store_id, 'customers', '', '', count(*)::int FROM customers WHERE ${scope} GROUP BY 1
    UNION ALL SELECT store_id, 'collections', '', '', count(*)::int FROM collections WHERE ${scope} GROUP BY 1
    UNION ALL SELECT store_id, 'attributes', '', '', count(*)::int FROM attributes WHERE ${scope} GROUP BY 1`.execute(db);
  return rows.sort((a, b) => a.store_id.localeCompare(b.store_id) || byKey(a, b));
}

/** The counters agree with count(*) for every list and key of the store (or of every store). */
export async function expectCountersExact(db: AnyDb, storeId: string | null): Promise<void> {
  expect(await counterTotals(db, storeId)).toEqual(await countedTotals(db, storeId));
}
