import { type Expression, type SqlBool, sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { Tx } from '../db/transaction.js';
import { type ErrorDetail, notFound, validationError } from '../errors.js';
import { isId } from '../shared/ids.js';
import { compileRules, type MatchType } from './rules.js';

/**
 * Collection membership as the products side sees it. Owned by the collections resource.
 * Manual membership is one relation (product_collections) seen from both sides; smart
 * membership is never stored, it is the collection's rules evaluated at read time.
 */

type Side = 'product' | 'collection';

// Fixed column names per side of the relation: the only SQL identifiers built dynamically here.
const SIDES = {
  product: { own: 'product_id', other: 'collection_id', ownPosition: 'product_position', otherPosition: 'collection_position' },
  collection: { own: 'collection_id', other: 'product_id', ownPosition: 'collection_position', otherPosition: 'product_position' },
} as const;

/** `field[i]: is listed twice` for each repeated id (linear: the lists may hold thousands). */
export function duplicateIds(ids: string[], field: string): ErrorDetail[] {
  const seen = new Set<string>();
  return ids.flatMap((id, index) => {
    if (!seen.has(id)) {
      seen.add(id);
      return [];
    }
    return [{ field: `${field}[${index}]`, in: 'body' as const, message: 'is listed twice' }];
  });
}

/**
 * Makes the owner's (a product's or a collection's) memberships exactly `ids`, in that order on
 * the owner's side. Rows that stay keep their place on the other side; new rows go to its end.
 * The ids must have been checked.
 */
export async function replaceMemberships(db: Db, storeId: string, side: Side, ownerId: string, ids: string[]): Promise<void> {
  const { own, other, ownPosition, otherPosition } = SIDES[side];
  await sql`DELETE FROM product_collections WHERE store_id = ${storeId} AND ${sql.ref(own)} = ${ownerId} AND NOT (${sql.ref(other)} = ANY(${ids}::text[]))`.execute(
    db,
  );
  if (ids.length === 0) return;
  await sql`
    INSERT INTO product_collections (store_id, ${sql.ref(own)}, ${sql.ref(other)}, ${sql.ref(ownPosition)}, ${sql.ref(otherPosition)})
    SELECT ${storeId}, ${ownerId}, given.id, (given.ord - 1)::int,
      coalesce((SELECT max(pc.${sql.ref(otherPosition)}) + 1 FROM product_collections pc WHERE pc.store_id = ${storeId} AND pc.${sql.ref(other)} = given.id), 0)
    FROM unnest(${ids}::text[]) WITH ORDINALITY AS given(id, ord)
    ON CONFLICT (store_id, collection_id, product_id) DO UPDATE SET ${sql.ref(ownPosition)} = excluded.${sql.ref(ownPosition)}`.execute(db);
}

/**
 * The details for ids that are not manual collections of the store. The valid ones are locked
 * (FOR SHARE) until the transaction ends, so they cannot turn smart or vanish meanwhile.
 */
async function notManualCollections(db: Tx, storeId: string, ids: string[], field: string): Promise<ErrorDetail[]> {
  const valid = [...new Set(ids.filter(isId))];
  const { rows } = valid.length
    ? await sql<{
        id: string;
      }>`SELECT id FROM collections WHERE store_id = ${storeId} AND id = ANY(${valid}::text[]) AND collection_type = 'manual' FOR SHARE`.execute(
        db,
      )
    : { rows: [] };
  const manual = new Set(rows.map((row) => row.id));
  return ids.flatMap((id, index) =>
    manual.has(id)
      ? []
      : [{ field: `${field}[${index}]`, in: 'body' as const, message: 'must be the id of a manual collection of this store' }],
  );
}

/** Replaces the manual collections of a product; every id must be a manual collection of the store (400 naming selectedCollections[i]). */
export async function setProductCollections(db: Tx, storeId: string, productId: string, collectionIds: string[]): Promise<void> {
  const details = [
    ...duplicateIds(collectionIds, 'selectedCollections'),
    ...(await notManualCollections(db, storeId, collectionIds, 'selectedCollections')),
  ];
  if (details.length) throw validationError(details);
  await replaceMemberships(db, storeId, 'product', productId, collectionIds);
}

/**
 * For a query over the unaliased `products` table: the ids of each row's manual collections, in
 * the product's order, as one column — so a product read needs no second round trip.
 */
export function collectionIdsColumn() {
  return sql<string[]>`(SELECT coalesce(array_agg(pc.collection_id ORDER BY pc.product_position, pc.collection_id), '{}')
    FROM product_collections pc WHERE pc.store_id = products.store_id AND pc.product_id = products.id)`;
}

/**
 * A condition over the unaliased `products` table that holds for the members (manual or smart) of
 * the collection; throws 404 when the collection is not one of the store's.
 */
export async function productsInCollection(db: Db, storeId: string, collectionId: string): Promise<Expression<SqlBool>> {
  const row = isId(collectionId)
    ? await db
        .selectFrom('collections')
        .select(['collection_type', 'match_type', 'conditions'])
        .where('store_id', '=', storeId)
        .where('id', '=', collectionId)
        .executeTakeFirst()
    : undefined;
  if (!row) throw notFound('Collection');
  if (row.collection_type === 'smart') {
    return sql<SqlBool>`(products.store_id = ${storeId} AND ${compileRules((row.match_type ?? 'all condition') as MatchType, row.conditions)})`;
  }
  return sql<SqlBool>`(products.store_id = ${storeId} AND products.id IN (SELECT pc.product_id FROM product_collections pc WHERE pc.store_id = ${storeId} AND pc.collection_id = ${collectionId}))`;
}
