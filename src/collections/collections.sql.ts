import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { iso } from '../shared/envelope.js';
import { ilikeAny, type ListSpec } from '../shared/list.js';
import type { Collection, CollectionType } from './collections.schema.js';
import type { CollectionCondition } from './collections.tables.js';
import type { MatchType } from './rules.js';

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
  created_at: Date;
  updated_at: Date;
}

/** A row with its derived lists, as every read returns it. */
export interface CollectionRowWithLinks extends CollectionRow {
  selected_products: string[];
  child_ids: string[];
}

export const listSpec: ListSpec = {
  sorts: { createdAt: sql`created_at`, title: sql`(lower(title) COLLATE "C")` },
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
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}
