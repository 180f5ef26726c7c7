import { type RawBuilder, sql } from 'kysely';
import type { Tx } from '../../src/db/index.js';

/**
 * What the database's triggers would have written for a batch of catalog copies (clone.ts), written set-based
 * instead. The copies run with `session_replication_role = replica` (no trigger fires, foreign keys included:
 * every copied key is its original's, rewritten the same way for every table), because the per-row triggers
 * were most of a copy's cost: each variant with stock ran storefront_stock_to_default_level and the level's own
 * trigger (six statements per variant), each product its deferred search-text check. What those triggers leave
 * is written here from the same originals, so the rows are the ones the triggered path leaves
 * (clone.test.ts checks each against the rule its trigger keeps):
 *
 * - an inventory level at the copy's store's default location for every variant with stock and every simple
 *   product with a total (migration 0114: storefront_stock_to_default_level on INSERT);
 * - list_counts for the copied products, and for another store's copied attribute sets and attributes
 *   (migration 0007: the statement-level counters);
 * - nothing for the search text: the copy supplies it (clone.ts), and its trigger's check at commit finds a
 *   supplied text that is the function of the rows and writes nothing; clone.test.ts checks that it is.
 */

/** What the copies' SQL is given: the copies as a relation (n, store_id, within, prefix, suffix) and the source store. */
export interface CopiesSql {
  from: string;
  table: RawBuilder<unknown>;
}

const copied = (column: RawBuilder<unknown>) => sql`overlay(${column} placing copies.prefix from 1 for 4)`;

/** Originals only: ids below 'c' (the API's ids begin with the seconds in hex, `6…` until 2029; copies with `c`), by the key's index. */
export const isOriginal = (column: RawBuilder<unknown>) => sql`${column} < 'c'`;

/** The levels storefront_stock_to_default_level writes for an inserted item: at the store's default location, its stock. */
export async function copyInventoryLevels(trx: Tx, copies: CopiesSql): Promise<void> {
  const home = sql`JOIN locations home ON home.store_id = copies.store_id AND home.is_default`;
  await sql`INSERT INTO inventory_levels (store_id, item_id, location_id, product_id, variant_id, available, created_at, updated_at)
    SELECT copies.store_id, ${copied(sql`o.id`)}, home.id, ${copied(sql`o.product_id`)}, ${copied(sql`o.id`)}, o.stock, now(), now()
    FROM variants o CROSS JOIN (${copies.table}) AS copies ${home}
    WHERE o.store_id = ${copies.from} AND ${isOriginal(sql`o.id`)} AND o.stock <> 0`.execute(trx);
  await sql`INSERT INTO inventory_levels (store_id, item_id, location_id, product_id, variant_id, available, created_at, updated_at)
    SELECT copies.store_id, ${copied(sql`o.id`)}, home.id, ${copied(sql`o.id`)}, NULL, o.total_stock, now(), now()
    FROM products o CROSS JOIN (${copies.table}) AS copies ${home}
    WHERE o.store_id = ${copies.from} AND ${isOriginal(sql`o.id`)} AND o.options = '[]'::jsonb AND coalesce(o.total_stock, 0) <> 0`.execute(
    trx,
  );
}

/**
 * The counters list_counts_<table>() adds for an INSERT: per store and key, in the transaction's shard. `key`:
 * the list's key column (status), or none; `where`: which copies got rows of the table.
 */
async function countCopies(trx: Tx, table: string, copies: CopiesSql, key: string | null, where: RawBuilder<unknown>): Promise<void> {
  const key1 = key === null ? sql`''` : sql`o.${sql.ref(key)}`;
  await sql`INSERT INTO list_counts AS c (store_id, list, key1, key2, shard, n)
    SELECT copies.store_id, ${table}, ${key1}, '', (txid_current() % 32)::smallint, count(*)
    FROM ${sql.table(table)} o CROSS JOIN (${copies.table}) AS copies
    WHERE o.store_id = ${copies.from} AND ${isOriginal(sql`o.id`)} AND ${where}
    GROUP BY 1, 3
    ON CONFLICT (store_id, list, key1, key2, shard) DO UPDATE SET n = c.n + excluded.n`.execute(trx);
}

/** The counted lists a catalog copy adds to: products everywhere, attribute sets and attributes in another store. */
export async function countCopiedLists(trx: Tx, copies: CopiesSql): Promise<void> {
  const elsewhere = sql`NOT copies.within`;
  await countCopies(trx, 'products', copies, 'status', sql`true`);
  await countCopies(trx, 'attribute_sets', copies, 'status', elsewhere);
  await countCopies(trx, 'attributes', copies, null, elsewhere);
}
