import { type Selectable, sql } from 'kysely';
import type { DB, Db } from '../db/index.js';
import { ilikeAny, type ListSpec } from '../reads/index.js';
import { newId } from '../shared/index.js';
import type { ATTRIBUTE_SORTS } from './attributes.schema.js';

export const COLUMNS = ['id', 'name', 'attribute_set_id', 'created_at', 'updated_at'] as const;
export type AttributeRow = Pick<Selectable<DB['attributes']>, (typeof COLUMNS)[number]>;

export const listSpec: ListSpec<typeof ATTRIBUTE_SORTS> = {
  path: '/attributes',
  sorts: { createdAt: sql`created_at`, updatedAt: sql`updated_at`, name: sql`(lower(name) COLLATE "C")` },
  idColumn: sql`id`,
  search: ilikeAny(['name']),
};

export function selectAttributes(db: Db, storeId: string) {
  return db.selectFrom('attributes').select(COLUMNS).where('store_id', '=', storeId);
}

export function findAttributeRow(db: Db, storeId: string, id: string): Promise<AttributeRow | undefined> {
  return selectAttributes(db, storeId).where('id', '=', id).executeTakeFirst();
}

export function insertAttribute(db: Db, storeId: string, values: { name: string; attribute_set_id: string | null }): Promise<AttributeRow> {
  const now = new Date();
  return db
    .insertInto('attributes')
    .values({ store_id: storeId, id: newId(), ...values, created_at: now, updated_at: now })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}

export function updateAttributeRow(
  db: Db,
  storeId: string,
  id: string,
  changes: { name?: string; attribute_set_id?: string | null },
): Promise<AttributeRow> {
  return db
    .updateTable('attributes')
    .set({ ...changes, updated_at: new Date() })
    .where('store_id', '=', storeId)
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}

/**
 * Upserts attributes by name, case-insensitively (the rule of `attributes_name_key`): an existing
 * attribute is reused with its own spelling, a missing one is created without an attribute set.
 * Returns the attribute ids in the order of `names`. Both the conflict and the lookup use SQL
 * `lower()`, so this agrees with the unique index whatever the characters. Used by product options.
 * `created`: the ids of the attributes this call created.
 */
export async function upsertAttributesByName(db: Db, storeId: string, names: string[]): Promise<{ ids: string[]; created: string[] }> {
  if (names.length === 0) return { ids: [], created: [] };
  const now = new Date();
  const inserted = await db
    .insertInto('attributes')
    // Sorted, so concurrent upserts of overlapping names take their index locks in one order (no deadlock).
    .values(
      [...names].sort().map((name) => ({ store_id: storeId, id: newId(), name, attribute_set_id: null, created_at: now, updated_at: now })),
    )
    .onConflict((oc) => oc.expression(sql`store_id, lower(name)`).doNothing())
    .returning('id')
    .execute();
  const { rows } = await sql<{ ord: number; id: string }>`
    SELECT n.ord::int AS ord, a.id FROM unnest(${names}::text[]) WITH ORDINALITY AS n(name, ord)
    JOIN attributes a ON a.store_id = ${storeId} AND lower(a.name) = lower(n.name)`.execute(db);
  const byOrdinal = new Map(rows.map((row) => [Number(row.ord), row.id]));
  return { ids: names.map((_, index) => byOrdinal.get(index + 1) as string), created: inserted.map((row) => row.id) };
}

/** Moves the updatedAt of attributes whose list of values another write changed. */
export async function touchAttributes(db: Db, storeId: string, ids: string[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('attributes').set({ updated_at: at }).where('store_id', '=', storeId).where('id', 'in', ids).execute();
}
