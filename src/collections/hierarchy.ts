import type { Db, Tx } from '../db/index.js';
import type { ErrorDetail } from '../errors.js';
import { noteUpdated } from '../events/index.js';
import { missingReferences } from '../shared/index.js';
import { detachChildren, isSelfOrDescendant, touchCollections } from './collections.sql.js';

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

/**
 * A collection moved from parent `before` to `after` (null: none; the same: no move): both parents'
 * childCollection changed, so their updatedAt moves and each gets its `collection.updated` event.
 */
export async function parentMoved(db: Tx, storeId: string, before: string | null, after: string | null): Promise<void> {
  if (before === after) return;
  const parents = [before, after].filter((id): id is string => id !== null);
  await touchCollections(db, storeId, parents, new Date());
  noteUpdated(db, storeId, 'collection', parents);
}

/** Before a delete: the children lose their parent (and get their events), as does the parent its child. */
export async function leaveHierarchy(db: Tx, storeId: string, id: string, parentId: string | null): Promise<void> {
  noteUpdated(db, storeId, 'collection', await detachChildren(db, storeId, id));
  await parentMoved(db, storeId, parentId, null);
}
