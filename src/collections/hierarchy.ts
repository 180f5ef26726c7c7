import type { Db } from '../db/index.js';
import type { ErrorDetail } from '../errors.js';
import { missingReferences } from '../shared/index.js';
import { isSelfOrDescendant } from './collections.sql.js';

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
