import type { Expression, SqlBool } from 'kysely';
import type { Db, Tx } from '../db/index.js';
import { type ErrorDetail, found, validationError } from '../errors.js';
import { noteUpdated } from '../events/index.js';
import { isId } from '../shared/index.js';
import type { MatchType } from './collections.schema.js';
import { findCollectionRow } from './collections.sql.js';
import {
  lockManualCollections,
  manualMembersCondition,
  replaceMemberships,
  type Side,
  smartMembersCondition,
  touchMembers,
} from './membership.sql.js';
import { compileRules } from './rules.sql.js';

/** Collection membership as the products side sees it. Owned by the collections resource. */

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
 * The details for ids that are not manual collections of the store. The valid ones are locked
 * (FOR SHARE) until the transaction ends, so they cannot turn smart or vanish meanwhile.
 */
async function notManualCollections(db: Tx, storeId: string, ids: string[], field: string): Promise<ErrorDetail[]> {
  const manual = await lockManualCollections(db, storeId, [...new Set(ids.filter(isId))]);
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
  await setMemberships(db, storeId, 'product', productId, collectionIds);
}

/**
 * Replaces the owner's memberships (ids checked) and, as a manual membership shows on both sides, moves the
 * updatedAt of each record of the other side that gained or lost the owner and notes its `updated` event.
 */
export async function setMemberships(db: Tx, storeId: string, side: Side, ownerId: string, ids: string[]): Promise<void> {
  const changed = await replaceMemberships(db, storeId, side, ownerId, ids);
  await touchMembers(db, storeId, side, changed, new Date());
  noteUpdated(db, storeId, side === 'product' ? 'collection' : 'product', changed);
}

/**
 * A condition over the unaliased `products` table that holds for the members (manual or smart) of
 * the collection; throws 404 when the collection is not one of the store's.
 */
export async function productsInCollection(db: Db, storeId: string, collectionId: string): Promise<Expression<SqlBool>> {
  const row = found(isId(collectionId) && (await findCollectionRow(db, storeId, collectionId)), 'Collection');
  if (row.collection_type === 'smart') {
    return smartMembersCondition(storeId, compileRules((row.match_type ?? 'all condition') as MatchType, row.conditions));
  }
  return manualMembersCondition(storeId, collectionId);
}
