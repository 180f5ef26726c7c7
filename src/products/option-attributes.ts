import { sql } from 'kysely';
import { upsertAttributeValues } from '../attributes/attribute-values.sql.js';
import type { Db } from '../db/database.js';
import { newId } from '../shared/ids.js';
import type { Combination, ProductOption } from './options.js';

/**
 * Option names and values as the store's Attributes and AttributeValues (CONTRACT §6), and the
 * links of each variant to the AttributeValues of its combination.
 */

/**
 * Upserts attributes by name, case-insensitively (the rule of `attributes_name_key`): an existing
 * attribute is reused with its own spelling, a missing one is created without an attribute set.
 * Returns the attribute ids in the order of `names`. Both the conflict and the lookup use SQL
 * `lower()`, so this agrees with the unique index whatever the characters.
 */
export async function upsertAttributesByName(db: Db, storeId: string, names: string[]): Promise<string[]> {
  if (names.length === 0) return [];
  const now = new Date();
  await db
    .insertInto('attributes')
    // Sorted, so concurrent upserts of overlapping names take their index locks in one order (no deadlock).
    .values(
      [...names].sort().map((name) => ({ store_id: storeId, id: newId(), name, attribute_set_id: null, created_at: now, updated_at: now })),
    )
    .onConflict((oc) => oc.expression(sql`store_id, lower(name)`).doNothing())
    .execute();
  const { rows } = await sql<{ ord: number; id: string }>`
    SELECT n.ord::int AS ord, a.id FROM unnest(${names}::text[]) WITH ORDINALITY AS n(name, ord)
    JOIN attributes a ON a.store_id = ${storeId} AND lower(a.name) = lower(n.name)`.execute(db);
  const byOrdinal = new Map(rows.map((row) => [Number(row.ord), row.id]));
  return names.map((_, index) => byOrdinal.get(index + 1) as string);
}

/** Per option (in order): value -> AttributeValue id, upserting the values onto the option's attribute. */
async function upsertOptionValues(db: Db, storeId: string, options: ProductOption[]): Promise<Map<string, string>[]> {
  const attributeIds = await upsertAttributesByName(
    db,
    storeId,
    options.map((option) => option.name),
  );
  const result: Map<string, string>[] = [];
  for (const [index, option] of options.entries()) {
    const ids = await upsertAttributeValues(db, storeId, attributeIds[index], option.values, 'append');
    result.push(new Map(option.values.map((value, j) => [value, ids[j]])));
  }
  return result;
}

/**
 * Replaces the attribute combinations of a product's variants: one DELETE and one INSERT whatever
 * the number of variants (arrays are bound as two parameters, far below PostgreSQL's 65535 limit).
 */
export async function linkVariantValues(
  db: Db,
  storeId: string,
  productId: string,
  variants: { id: string; attributes: Combination }[],
  options: ProductOption[],
): Promise<void> {
  const valueIds = await upsertOptionValues(db, storeId, options);
  await sql`DELETE FROM variant_attribute_values WHERE store_id = ${storeId} AND variant_id IN (
    SELECT id FROM variants WHERE store_id = ${storeId} AND product_id = ${productId})`.execute(db);
  const variantColumn: string[] = [];
  const valueColumn: string[] = [];
  for (const variant of variants) {
    options.forEach((option, index) => {
      const valueId = valueIds[index].get(variant.attributes[option.name]);
      if (valueId) {
        variantColumn.push(variant.id);
        valueColumn.push(valueId);
      }
    });
  }
  if (variantColumn.length === 0) return;
  await sql`INSERT INTO variant_attribute_values (store_id, variant_id, attribute_value_id)
    SELECT ${storeId}, v, a FROM unnest(${variantColumn}::text[], ${valueColumn}::text[]) AS u(v, a)`.execute(db);
}
