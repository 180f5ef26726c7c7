import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { Tx } from '../db/transaction.js';
import type { ErrorDetail } from '../errors.js';
import { missingReferences } from '../shared/references.js';

// Any constant: with the store id it names the advisory lock of one store's collections.
const COLLECTIONS_LOCK = 7_327_003;

/**
 * Serializes the writes to one store's collections until the transaction ends. Cycle checks and
 * generated handles read before they write; without this, two concurrent writes could each pass
 * the check and together make a cycle or a duplicate handle. Collection writes are rare, so
 * one lock per store costs nothing noticeable.
 */
export async function lockStoreCollections(db: Tx, storeId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(${COLLECTIONS_LOCK}, hashtext(${storeId}))`.execute(db);
}

/** Whether `candidateId` is `collectionId` itself or one of its descendants (walking up from the candidate). */
async function isSelfOrDescendant(db: Db, storeId: string, collectionId: string, candidateId: string): Promise<boolean> {
  // UNION (not UNION ALL) stops the walk even on a cycle the database should never hold.
  const { rows } = await sql<{ found: boolean }>`
    WITH RECURSIVE ancestors(id) AS (
      SELECT ${candidateId}::text
      UNION
      SELECT c.parent_id FROM collections c JOIN ancestors a ON c.store_id = ${storeId} AND c.id = a.id WHERE c.parent_id IS NOT NULL
    )
    SELECT EXISTS (SELECT 1 FROM ancestors WHERE id = ${collectionId}) AS found`.execute(db);
  return rows[0]?.found === true;
}

/**
 * The details for a parentCollection that is not a collection of the store, or that is the
 * collection itself or one of its descendants (`collectionId` null on create: no cycle possible).
 */
export async function parentErrors(db: Db, storeId: string, collectionId: string | null, parentId: string): Promise<ErrorDetail[]> {
  const missing = await missingReferences(db, 'collections', storeId, [parentId], 'parentCollection', true);
  if (missing.length || collectionId === null) return missing;
  if (!(await isSelfOrDescendant(db, storeId, collectionId, parentId))) return [];
  return [{ field: 'parentCollection', in: 'body', message: 'cannot be the collection itself or one of its descendants' }];
}
