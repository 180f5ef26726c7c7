import { type Expression, type SqlBool, sql } from 'kysely';
import type { Db, Tx } from '../db/index.js';

/**
 * The SQL of collection membership. Manual membership is one relation (product_collections) seen
 * from both sides; smart membership is never stored, it is the collection's rules evaluated at read time.
 */

export type Side = 'product' | 'collection';

// Fixed column names per side of the relation: the only SQL identifiers built dynamically here.
const SIDES = {
  product: { own: 'product_id', other: 'collection_id', ownPosition: 'product_position', otherPosition: 'collection_position' },
  collection: { own: 'collection_id', other: 'product_id', ownPosition: 'collection_position', otherPosition: 'product_position' },
} as const;

/**
 * Makes the owner's (a product's or a collection's) memberships exactly `ids`, in that order on
 * the owner's side. Rows that stay keep their place on the other side; new rows go to its end.
 * The ids must have been checked. Returns the ids of the other side whose membership list changed (a
 * row removed or added: a reorder on the owner's side changes only the owner's list).
 */
export async function replaceMemberships(db: Db, storeId: string, side: Side, ownerId: string, ids: string[]): Promise<string[]> {
  const { own, other, ownPosition, otherPosition } = SIDES[side];
  const removed = await sql<{ id: string }>`DELETE FROM product_collections WHERE store_id = ${storeId} AND ${sql.ref(own)} = ${ownerId}
    AND NOT (${sql.ref(other)} = ANY(${ids}::text[])) RETURNING ${sql.ref(other)} AS id`.execute(db);
  if (ids.length === 0) return removed.rows.map((row) => row.id);
  // The rows already there are read in the statement's snapshot, before its insert: a RETURNING row not
  // among them was inserted. (Not `xmax = 0`: a table partitioned by store cannot return system columns.)
  const written = await sql<{ id: string }>`
    WITH kept AS (
      SELECT ${sql.ref(other)} AS id FROM product_collections
      WHERE store_id = ${storeId} AND ${sql.ref(own)} = ${ownerId} AND ${sql.ref(other)} = ANY(${ids}::text[])
    ), written AS (
      INSERT INTO product_collections (store_id, ${sql.ref(own)}, ${sql.ref(other)}, ${sql.ref(ownPosition)}, ${sql.ref(otherPosition)})
      SELECT ${storeId}, ${ownerId}, given.id, (given.ord - 1)::int,
        coalesce((SELECT max(pc.${sql.ref(otherPosition)}) + 1 FROM product_collections pc WHERE pc.store_id = ${storeId} AND pc.${sql.ref(other)} = given.id), 0)
      FROM unnest(${ids}::text[]) WITH ORDINALITY AS given(id, ord)
      ON CONFLICT (store_id, collection_id, product_id) DO UPDATE SET ${sql.ref(ownPosition)} = excluded.${sql.ref(ownPosition)}
      RETURNING ${sql.ref(other)} AS id
    )
    SELECT id FROM written WHERE id NOT IN (SELECT id FROM kept)`.execute(db);
  return [...removed.rows, ...written.rows].map((row) => row.id);
}

const TABLES = { product: 'collections', collection: 'products' } as const;

/** Moves the updatedAt of the other side's records whose membership list changed. */
export async function touchMembers(db: Db, storeId: string, side: Side, ids: string[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await sql`UPDATE ${sql.table(TABLES[side])} SET updated_at = ${at} WHERE store_id = ${storeId} AND id = ANY(${ids}::text[])`.execute(db);
}

/** The ids among `ids` that are manual collections of the store, locked (FOR SHARE) until the transaction ends. */
export async function lockManualCollections(db: Tx, storeId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const { rows } = await sql<{
    id: string;
  }>`SELECT id FROM collections WHERE store_id = ${storeId} AND id = ANY(${ids}::text[]) AND collection_type = 'manual' FOR SHARE`.execute(
    db,
  );
  return new Set(rows.map((row) => row.id));
}

/**
 * For a query over the unaliased `products` table: the ids of each row's manual collections, in
 * the product's order, as one column — so a product read needs no second round trip.
 */
export function collectionIdsColumn() {
  return sql<string[]>`(SELECT coalesce(array_agg(pc.collection_id ORDER BY pc.product_position, pc.collection_id), '{}')
    FROM product_collections pc WHERE pc.store_id = products.store_id AND pc.product_id = products.id)`;
}

/** A condition over the unaliased `products` table: the manual members of the collection. */
export function manualMembersCondition(storeId: string, collectionId: string): Expression<SqlBool> {
  return sql<SqlBool>`(products.store_id = ${storeId} AND products.id IN (SELECT pc.product_id FROM product_collections pc WHERE pc.store_id = ${storeId} AND pc.collection_id = ${collectionId}))`;
}

/** A condition over the unaliased `products` table: the products matching a smart collection's compiled rules. */
export function smartMembersCondition(storeId: string, rules: Expression<SqlBool>): Expression<SqlBool> {
  return sql<SqlBool>`(products.store_id = ${storeId} AND ${rules})`;
}
