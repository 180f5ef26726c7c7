import { type Insertable, sql, type Updateable } from 'kysely';
import type { CollectionCondition, DB, Db, Tx } from '../db/index.js';
import { ilikeAny, type ListSpec } from '../reads/index.js';
import { type CustomFields, customFieldsOutput, iso } from '../shared/index.js';
import type { COLLECTION_SORTS, Collection, CollectionType, MatchType } from './collections.schema.js';

export const COLUMNS = [
  'id',
  'title',
  'handle',
  'description',
  'image',
  'collection_type',
  'parent_id',
  'match_type',
  'conditions',
  'meta_title',
  'meta_description',
  'meta_keywords',
  'custom_fields',
  'created_at',
  'updated_at',
] as const;

export interface CollectionRow {
  id: string;
  title: string;
  handle: string;
  description: string | null;
  image: string | null;
  collection_type: string;
  parent_id: string | null;
  match_type: string | null;
  conditions: CollectionCondition[];
  meta_title: string | null;
  meta_description: string | null;
  meta_keywords: string | null;
  custom_fields: CustomFields;
  created_at: Date;
  updated_at: Date;
}

/** A row with its derived lists, as every read returns it. */
export interface CollectionRowWithLinks extends CollectionRow {
  selected_products: string[];
  child_ids: string[];
}

export const listSpec: ListSpec<typeof COLLECTION_SORTS> = {
  path: '/collections',
  sorts: { createdAt: sql`created_at`, updatedAt: sql`updated_at`, title: sql`(lower(title) COLLATE "C")` },
  idColumn: sql`id`,
  search: ilikeAny(['title', 'handle']),
};

/**
 * The store's collections with their member products and children, in one query whatever the
 * page size: each list is an indexed correlated subquery, never a query per collection.
 */
export function selectCollections(db: Db, storeId: string) {
  return db
    .selectFrom('collections')
    .select(COLUMNS)
    .select([
      sql<
        string[]
      >`array(SELECT pc.product_id FROM product_collections pc WHERE pc.store_id = collections.store_id AND pc.collection_id = collections.id ORDER BY pc.collection_position, pc.product_id)`.as(
        'selected_products',
      ),
      sql<
        string[]
      >`array(SELECT ch.id FROM collections ch WHERE ch.store_id = collections.store_id AND ch.parent_id = collections.id ORDER BY ch.created_at, ch.id)`.as(
        'child_ids',
      ),
    ])
    .where('store_id', '=', storeId);
}

export function toCollectionOutput(row: CollectionRowWithLinks): Collection {
  const smart = row.collection_type === 'smart';
  return {
    id: row.id,
    title: row.title,
    handle: row.handle,
    description: row.description,
    image: row.image,
    collectionType: row.collection_type as CollectionType,
    selectedProducts: smart ? [] : row.selected_products,
    parentCollection: row.parent_id,
    childCollection: row.child_ids,
    matchType: smart ? ((row.match_type ?? 'all condition') as MatchType) : null,
    conditions: smart ? row.conditions.map(({ field, operator, value }) => ({ field, operator, value })) : [],
    metaTitle: row.meta_title,
    metaDescription: row.meta_description,
    metaKeywords: row.meta_keywords,
    customFields: customFieldsOutput(row.custom_fields),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** The collection as GET reads it (with its members and children), or undefined. */
export function findCollection(db: Db, storeId: string, id: string) {
  return selectCollections(db, storeId).where('id', '=', id).executeTakeFirst();
}

/** The stored row without its derived lists, or undefined. */
export function findCollectionRow(db: Db, storeId: string, id: string): Promise<CollectionRow | undefined> {
  return db.selectFrom('collections').select(COLUMNS).where('store_id', '=', storeId).where('id', '=', id).executeTakeFirst();
}

/** INSERT … ON CONFLICT (store_id, handle) DO NOTHING: a taken handle returns undefined instead of aborting the transaction. */
export function insertCollectionRow(db: Db, values: Insertable<DB['collections']>): Promise<{ id: string } | undefined> {
  return db
    .insertInto('collections')
    .values(values)
    .onConflict((oc) => oc.columns(['store_id', 'handle']).doNothing())
    .returning('id')
    .executeTakeFirst();
}

/** The store's collection handles a generated `base` could collide with: `base` and `base-…`. */
export async function handlesLike(db: Db, storeId: string, base: string): Promise<Set<string>> {
  // A generated slug holds only [a-z0-9-], so it needs no LIKE escaping.
  const rows = await db
    .selectFrom('collections')
    .select('handle')
    .where('store_id', '=', storeId)
    .where((eb) => eb.or([eb('handle', '=', base), eb('handle', 'like', `${base}-%`)]))
    .execute();
  return new Set(rows.map((row) => row.handle));
}

export async function updateCollectionRow(db: Db, storeId: string, id: string, changes: Updateable<DB['collections']>): Promise<void> {
  await db
    .updateTable('collections')
    .set({ ...changes, updated_at: new Date() })
    .where('store_id', '=', storeId)
    .where('id', '=', id)
    .execute();
}

/** The children of `parentId` lose their parent; their own field changed, so their updatedAt moves. Returns their ids. */
export async function detachChildren(db: Db, storeId: string, parentId: string): Promise<string[]> {
  const rows = await db
    .updateTable('collections')
    .set({ parent_id: null, updated_at: new Date() })
    .where('store_id', '=', storeId)
    .where('parent_id', '=', parentId)
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

/** Moves the updatedAt of collections whose representation another write changed (a parent's childCollection). */
export async function touchCollections(db: Db, storeId: string, ids: string[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('collections').set({ updated_at: at }).where('store_id', '=', storeId).where('id', 'in', ids).execute();
}

// Any constant: with the store id it names the advisory lock of one store's collections.
const COLLECTIONS_LOCK = 7_327_003;

/**
 * Serializes the moves and deletes of one store's collections until the transaction ends. A cycle
 * check reads before the write; without this, two concurrent moves could each pass the check and
 * together make a cycle. Creates do not take it (a new collection has no descendants, and its
 * handle is settled by the unique index), so they never queue behind each other.
 */
export async function lockStoreCollections(db: Tx, storeId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(${COLLECTIONS_LOCK}, hashtext(${storeId}))`.execute(db);
}

/** Whether `candidateId` is `collectionId` itself or one of its descendants (walking up from the candidate). */
export async function isSelfOrDescendant(db: Db, storeId: string, collectionId: string, candidateId: string): Promise<boolean> {
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

/** The id of the store's collection with this (slugified) handle: an import line's key. */
export async function collectionIdByHandle(db: Db, storeId: string, handle: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('collections')
    .select('id')
    .where('store_id', '=', storeId)
    .where('handle', '=', handle)
    .executeTakeFirst();
  return row?.id;
}
