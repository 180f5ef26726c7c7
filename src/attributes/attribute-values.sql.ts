import { sql } from 'kysely';
import type { Db } from '../db/index.js';
import { iso, newId } from '../shared/index.js';
import type { AttributeValue } from './attributes.schema.js';

export type UpsertMode = 'replace' | 'append';

/**
 * The one upsert of AttributeValues by name, used by the attributes API and by product options.
 * A name that exists for the attribute reuses its id; others are created. `replace` makes the
 * list exactly `names` (values dropped from it stay, inactive); `append` adds to the list.
 * Returns the ids in the order of `names`. Names must be distinct.
 */
export async function upsertAttributeValues(
  db: Db,
  storeId: string,
  attributeId: string,
  names: string[],
  mode: UpsertMode,
): Promise<string[]> {
  if (mode === 'append') return (await appendAttributeValues(db, storeId, attributeId, names)).ids;
  await db
    .updateTable('attribute_values')
    .set({ status: 'inactive', position: null })
    .where('store_id', '=', storeId)
    .where('attribute_id', '=', attributeId)
    .$if(names.length > 0, (qb) => qb.where('name', 'not in', names))
    .execute();
  if (names.length === 0) return [];
  const rows = await insertValues(db, storeId, attributeId, names, (_name, index) => index)
    .onConflict((oc) =>
      oc.columns(['store_id', 'attribute_id', 'name']).doUpdateSet({ status: 'active', position: sql`excluded.position` }),
    )
    .returning(['id', 'name'])
    .execute();
  return idsInOrder(rows, names);
}

function insertValues(db: Db, storeId: string, attributeId: string, names: string[], positionOf: (name: string, index: number) => number) {
  const now = new Date();
  return db.insertInto('attribute_values').values(
    names.map((name, index) => ({
      store_id: storeId,
      id: newId(),
      attribute_id: attributeId,
      name,
      value: name,
      status: 'active',
      position: positionOf(name, index),
      created_at: now,
    })),
  );
}

function idsInOrder(rows: { id: string; name: string }[], names: string[]): string[] {
  const idByName = new Map(rows.map((row) => [row.name, row.id]));
  return names.map((name) => idByName.get(name) as string);
}

/**
 * Append mode (product options): values already listed are only read, never written, so concurrent
 * product creates sharing option values take no row locks on them and do not queue behind each other.
 * `changed`: whether the attribute's list of values changed (a value added or listed again).
 */
export async function appendAttributeValues(
  db: Db,
  storeId: string,
  attributeId: string,
  names: string[],
): Promise<{ ids: string[]; changed: boolean }> {
  if (names.length === 0) return { ids: [], changed: false };
  const existing = () =>
    db
      .selectFrom('attribute_values')
      .select(['id', 'name', 'position'])
      .where('store_id', '=', storeId)
      .where('attribute_id', '=', attributeId)
      .where('name', 'in', names)
      .execute();
  const found = await existing();
  const known = new Set(found.map((row) => row.name));
  const missing = names.filter((name) => !known.has(name));
  if (missing.length === 0 && found.every((row) => row.position !== null)) return { ids: idsInOrder(found, names), changed: false };
  const top = await db
    .selectFrom('attribute_values')
    .select(sql<number>`coalesce(max(position), -1)`.as('top'))
    .where('store_id', '=', storeId)
    .where('attribute_id', '=', attributeId)
    .executeTakeFirstOrThrow();
  // Positions follow the order of `names`, whether a value is new or comes back to the list.
  const unlistedByName = new Map(found.filter((row) => row.position === null).map((row) => [row.name, row.id]));
  const placed = names.filter((name) => !known.has(name) || unlistedByName.has(name));
  const positionOf = new Map(placed.map((name, index) => [name, Number(top.top) + 1 + index]));
  if (missing.length) {
    await insertValues(db, storeId, attributeId, missing, (name) => positionOf.get(name) as number)
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  for (const [name, id] of unlistedByName) {
    await db
      .updateTable('attribute_values')
      .set({ status: 'active', position: positionOf.get(name) as number })
      .where('store_id', '=', storeId)
      .where('id', '=', id)
      .execute();
  }
  return { ids: idsInOrder(await existing(), names), changed: true };
}

type ValueRow = { id: string; attribute_id: string; name: string; value: string; hex: string | null; status: string; created_at: Date };

export function toAttributeValueOutput(row: ValueRow): AttributeValue {
  return {
    id: row.id,
    attribute: row.attribute_id,
    name: row.name,
    value: row.value,
    hex: row.hex,
    status: row.status,
    createdAt: iso(row.created_at),
  };
}

/** The listed (active, positioned) values of many attributes in one query, in list order. */
export async function listedValuesOf(db: Db, storeId: string, attributeIds: string[]): Promise<Map<string, ValueRow[]>> {
  const byAttribute = new Map<string, ValueRow[]>(attributeIds.map((id) => [id, []]));
  if (attributeIds.length === 0) return byAttribute;
  const rows = await db
    .selectFrom('attribute_values')
    .select(['id', 'attribute_id', 'name', 'value', 'hex', 'status', 'created_at'])
    .where('store_id', '=', storeId)
    .where('attribute_id', 'in', attributeIds)
    .where('position', 'is not', null)
    .orderBy('attribute_id')
    .orderBy('position')
    .execute();
  for (const row of rows) byAttribute.get(row.attribute_id)?.push(row);
  return byAttribute;
}

/**
 * The ids of option values that already exist and are listed, in one read: per option (in order),
 * value -> AttributeValue id, or null when any attribute or value is missing or unlisted (the caller
 * then upserts). A catalog's options repeat, so a product create usually needs only this statement.
 * Attributes match by name case-insensitively, values exactly, as the upserts do.
 */
export async function findListedOptionValues(
  db: Db,
  storeId: string,
  options: { name: string; values: string[] }[],
): Promise<Map<string, string>[] | null> {
  const { rows } = await sql<{ attribute: string; value: string; id: string }>`
    SELECT lower(a.name) AS attribute, v.name AS value, v.id FROM attributes a
    JOIN attribute_values v ON v.store_id = a.store_id AND v.attribute_id = a.id
    WHERE a.store_id = ${storeId} AND lower(a.name) = ANY(${options.map((option) => option.name.toLowerCase())}::text[])
      AND v.name = ANY(${options.flatMap((option) => option.values)}::text[]) AND v.position IS NOT NULL`.execute(db);
  const byAttribute = new Map<string, Map<string, string>>();
  for (const row of rows) {
    if (!byAttribute.has(row.attribute)) byAttribute.set(row.attribute, new Map());
    byAttribute.get(row.attribute)?.set(row.value, row.id);
  }
  const result = options.map((option) => {
    const found = byAttribute.get(option.name.toLowerCase());
    return option.values.every((value) => found?.has(value))
      ? new Map(option.values.map((value) => [value, found?.get(value) as string]))
      : null;
  });
  return result.every((map) => map !== null) ? (result as Map<string, string>[]) : null;
}
