import type { Db } from '../db/index.js';
import { type Tx, withTx } from '../db/index.js';
import { found, validationError } from '../errors.js';
import { storeMedia } from '../media/index.js';
import { countedTotal, runList, runListPage, selectByIds } from '../reads/index.js';
import {
  customFieldsDetails,
  deleteRecord,
  isId,
  lockedCurrent,
  mergeCustomFields,
  newCustomFields,
  newId,
  suppliedColumns,
} from '../shared/index.js';
import { fieldDetails, type ImageUploads, type ResolvedRules, referenceDetails, resolveRules } from './collections.checks.js';
import type { Collection, CollectionListQuery, CreateCollectionInput, UpdateCollectionInput } from './collections.schema.js';
import {
  type CollectionRow,
  findCollection,
  findCollectionRow,
  listSpec,
  lockStoreCollections,
  selectCollections,
  toCollectionOutput,
  updateCollectionRow,
} from './collections.sql.js';
import { insertCollection } from './handles.js';
import { leaveHierarchy, parentMoved } from './hierarchy.js';

import { setMemberships } from './membership.js';

/**
 * Every check of a write at once; throws one 400 naming all the wrong fields. Writes nothing: the
 * image bytes come back as `pending`, written by the caller after all its SQL (the products rule).
 */
async function check(db: Db, storeId: string, input: UpdateCollectionInput, current: CollectionRow | null, uploads: ImageUploads) {
  const rules = resolveRules(input, current);
  const fields = fieldDetails(input, uploads);
  // merged key by key into the stored ones (a null removes a key); on create nulls are dropped
  const customFields = current ? mergeCustomFields(current.custom_fields, input.customFields) : newCustomFields(input.customFields);
  const details = [
    ...fields.details,
    ...rules.details,
    ...customFieldsDetails(customFields),
    ...(await referenceDetails(db, storeId, input, rules.type, current?.id ?? null)),
  ];
  if (details.length) throw validationError(details);
  const customFieldsColumn = input.customFields !== undefined || !current ? JSON.stringify(customFields) : undefined;
  return { rules: rules as ResolvedRules, handle: fields.handle, image: fields.image, pending: fields.pending, customFieldsColumn };
}

/** The columns every write sets from the input when supplied (the rest is left as stored). */
function plainColumns(input: UpdateCollectionInput, image: string | null | undefined, customFields: string | undefined) {
  return suppliedColumns({
    custom_fields: customFields,
    title: input.title?.trim(),
    description: input.description,
    image,
    parent_id: input.parentCollection,
    meta_title: input.metaTitle,
    meta_description: input.metaDescription,
    meta_keywords: input.metaKeywords,
  });
}

const ruleColumns = (rules: ResolvedRules) => ({
  collection_type: rules.type,
  match_type: rules.matchType,
  conditions: JSON.stringify(rules.conditions.map(({ field, operator, value }) => ({ field, operator, value }))),
});

async function findRow(db: Db, storeId: string, id: string): Promise<CollectionRow> {
  const row = found(isId(id) && (await findCollectionRow(db, storeId, id)), 'Collection');
  return row;
}

export async function getCollection(db: Db, storeId: string, id: string): Promise<Collection> {
  const row = found(isId(id) && (await findCollection(db, storeId, id)), 'Collection');
  return toCollectionOutput(row);
}

/** The store's collections among `ids` as GET returns them, in the order of `ids`, in one statement (exports read chunks so). */
export async function getCollectionsByIds(db: Db, storeId: string, ids: string[]): Promise<Collection[]> {
  const rows = await selectByIds(selectCollections(db, storeId), ids);
  return rows.map(toCollectionOutput);
}

/**
 * If-Match's current version. Every collection write takes the store's collections lock first, so this
 * takes it first too (then the row): the check never waits in the opposite order of a write.
 */
export const currentCollection = (id: string) => async (trx: Tx, storeId: string) => {
  await lockStoreCollections(trx, storeId);
  return lockedCurrent('collections', id, getCollection)(trx, storeId);
};

/** One transaction (joined when `db` already is one): the row, its handle, memberships and image are written together. */
export function createCollection(db: Db, storeId: string, input: CreateCollectionInput, uploads: ImageUploads): Promise<Collection> {
  return withTx(db, (trx) => createInTx(trx, storeId, input, uploads));
}

async function createInTx(db: Tx, storeId: string, input: CreateCollectionInput, uploads: ImageUploads): Promise<Collection> {
  const { rules, handle, image, pending, customFieldsColumn } = await check(db, storeId, input, null, uploads);
  const id = newId();
  const now = new Date();
  const columns = { ...plainColumns(input, image, customFieldsColumn), ...ruleColumns(rules) };
  await insertCollection(db, { store_id: storeId, id, title: input.title.trim(), ...columns, created_at: now, updated_at: now }, handle);
  await parentMoved(db, storeId, null, input.parentCollection ?? null);
  if (rules.type === 'manual' && input.selectedProducts?.length) {
    await setMemberships(db, storeId, 'collection', id, input.selectedProducts);
  }
  // Files last, after every statement: a request that fails (a taken handle too) writes none.
  await storeMedia(uploads.store, pending);
  return getCollection(db, storeId, id);
}

/**
 * Takes the store's collections lock (hence `Tx`). Switching a manual collection to smart removes
 * its manual memberships: a smart collection's members are its rules' matches and nothing else.
 */
export async function updateCollection(
  db: Tx,
  storeId: string,
  id: string,
  input: UpdateCollectionInput,
  uploads: ImageUploads,
): Promise<Collection> {
  await lockStoreCollections(db, storeId);
  // findRow holds the id guard
  const current = await findRow(db, storeId, id);
  const { rules, handle, image, pending, customFieldsColumn } = await check(db, storeId, input, current, uploads);
  await updateCollectionRow(db, storeId, id, {
    ...plainColumns(input, image, customFieldsColumn),
    ...(handle !== undefined ? { handle } : {}),
    ...ruleColumns(rules),
  });
  if (input.parentCollection !== undefined) await parentMoved(db, storeId, current.parent_id, input.parentCollection);
  if (rules.type === 'smart' && current.collection_type === 'manual') await setMemberships(db, storeId, 'collection', id, []);
  if (rules.type === 'manual' && input.selectedProducts !== undefined) {
    await setMemberships(db, storeId, 'collection', id, input.selectedProducts);
  }
  // Files last, after every statement: a request that fails (a taken handle too) writes none.
  await storeMedia(uploads.store, pending);
  return getCollection(db, storeId, id);
}

/**
 * Takes the store's collections lock (hence `Tx`). Children are detached (their parentCollection
 * becomes null), the parent loses a child, the manual members lose a collection: each of those records
 * changed, so its updatedAt moves and it gets its `updated` event (a cascade would say nothing).
 */
export async function deleteCollection(db: Tx, storeId: string, id: string): Promise<{ id: string }> {
  // deleteRecord holds the id guard; a malformed id detaches nothing
  await lockStoreCollections(db, storeId);
  const row = isId(id) ? await findCollectionRow(db, storeId, id) : undefined;
  if (row) {
    await leaveHierarchy(db, storeId, id, row.parent_id);
    await setMemberships(db, storeId, 'collection', id, []);
  }
  return deleteRecord(db, 'collections', storeId, id, 'Collection');
}

export async function listCollections(db: Db, storeId: string, query: CollectionListQuery) {
  const total = () => countedTotal(db, storeId, { list: 'collections' });
  const { rows, pagination } = await runList(selectCollections(db, storeId), query, listSpec, { db, storeId, total });
  return { data: rows.map(toCollectionOutput), pagination };
}

/** A page of the same list without its total (runListPage: no count, a previous page by `before`): the console's. */
export async function listCollectionPage(db: Db, storeId: string, query: CollectionListQuery) {
  const { rows, nextCursor, prevCursor } = await runListPage(selectCollections(db, storeId), query, listSpec, { db, storeId });
  return { data: rows.map(toCollectionOutput), nextCursor, prevCursor };
}
