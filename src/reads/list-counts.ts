import { sql } from 'kysely';
import type { Db } from '../db/index.js';

/**
 * Exact list totals from the per-store counters of migrations/0007_list_counts.sql, kept by triggers in
 * every writing transaction: a sum over a few dozen rows instead of `count(*)` over every row in scope.
 * A list counted there names its keys here (key1, key2 in the table; '' where the list has fewer).
 */
export type CountedList =
  | { list: 'products'; status?: string }
  | { list: 'orders'; status?: string; paymentStatus?: string }
  | { list: 'attribute_sets'; status?: string }
  | { list: 'customers' | 'collections' | 'attributes' };

function keysOf(counted: CountedList): [string | undefined, string | undefined] {
  switch (counted.list) {
    case 'orders':
      return [counted.status, counted.paymentStatus];
    case 'products':
    case 'attribute_sets':
      return [counted.status, undefined];
    default:
      return [undefined, undefined];
  }
}

/**
 * The exact number of the store's rows in `counted.list` with the given key values (an absent key
 * matches every value). Only for filters that are all counter keys: anything else must count.
 */
export async function countedTotal(db: Db, storeId: string, counted: CountedList): Promise<number> {
  const row = await sql<{ total: number }>`SELECT ${countedTotalSql(storeId, counted)} AS total`.execute(db);
  return row.rows[0].total;
}

/** countedTotal as a scalar expression, for a statement that reads it with its page (one round trip). */
export function countedTotalSql(storeId: string, counted: CountedList) {
  const [key1, key2] = keysOf(counted);
  return sql<number>`(SELECT coalesce(sum(n), 0)::int FROM list_counts
    WHERE store_id = ${storeId} AND list = ${counted.list}
      ${key1 === undefined ? sql`` : sql`AND key1 = ${key1}`}
      ${key2 === undefined ? sql`` : sql`AND key2 = ${key2}`})`;
}

/**
 * The store's count of changes to its products (migrations/0131), as text: a version that grows with every
 * committed change to a product, so two reads that find the same one see the same products (search-cache.ts).
 */
export function productChangesSql(storeId: string) {
  return sql<string>`(SELECT coalesce(sum(n), 0)::text FROM list_counts WHERE store_id = ${storeId} AND list = 'product_changes')`;
}
