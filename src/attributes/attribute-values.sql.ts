import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { iso } from '../shared/envelope.js';
import { newId } from '../shared/ids.js';
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
  if (mode === 'replace') {
    await db
      .updateTable('attribute_values')
      .set({ status: 'inactive', position: null })
      .where('store_id', '=', storeId)
      .where('attribute_id', '=', attributeId)
      .$if(names.length > 0, (qb) => qb.where('name', 'not in', names))
      .execute();
  }
  if (names.length === 0) return [];
  const base =
    mode === 'append'
      ? Number(
          (
            await db
              .selectFrom('attribute_values')
              .select(sql<number>`coalesce(max(position), -1)`.as('top'))
              .where('store_id', '=', storeId)
              .where('attribute_id', '=', attributeId)
              .executeTakeFirstOrThrow()
          ).top,
        ) + 1
      : 0;
  const now = new Date();
  const rows = await db
    .insertInto('attribute_values')
    .values(
      names.map((name, index) => ({
        store_id: storeId,
        id: newId(),
        attribute_id: attributeId,
        name,
        value: name,
        status: 'active',
        position: base + index,
        created_at: now,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['store_id', 'attribute_id', 'name']).doUpdateSet({
        status: 'active',
        position: mode === 'replace' ? sql`excluded.position` : sql`coalesce(attribute_values.position, excluded.position)`,
      }),
    )
    .returning(['id', 'name'])
    .execute();
  const idByName = new Map(rows.map((row) => [row.name, row.id]));
  return names.map((name) => idByName.get(name) as string);
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
