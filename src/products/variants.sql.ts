import { sql, type Updateable } from 'kysely';
import type { Db } from '../db/index.js';
import { newId } from '../shared/index.js';
import type { Combination } from './options.js';
import { VARIANT_COLUMNS, type VariantRow } from './products.sql.js';
import type { VariantTable } from './products.tables.js';

/** The SQL of variants and of their links to AttributeValues (variant_attribute_values). */

/** A variant to create: its place, combination and generated SKU. */
export interface NewVariant {
  position: number;
  attributes: Combination;
  sku: string;
}

/** What new variants of a product start from. */
export interface VariantPrices {
  productId: string;
  price: number | string | null;
  comparePrice: number | string | null;
}

/** Rows of many products' variants in one query, by product then position. */
export function selectVariantsOf(db: Db, storeId: string, productIds: string[]): Promise<VariantRow[]> {
  return db
    .selectFrom('variants')
    .select(VARIANT_COLUMNS)
    .where('store_id', '=', storeId)
    .where('product_id', 'in', productIds)
    .orderBy('product_id')
    .orderBy('position')
    .execute();
}

export function selectCombinations(db: Db, storeId: string, productId: string) {
  return db
    .selectFrom('variants')
    .select(['id', 'attributes'])
    .where('store_id', '=', storeId)
    .where('product_id', '=', productId)
    .execute();
}

/**
 * A combination as PostgreSQL's jsonb gives it back (keys by UTF-8 length, then bytewise), so a row
 * built from what was written equals the row read back.
 */
function asJsonb(combination: Combination): Combination {
  const bytes = (key: string) => Buffer.from(key, 'utf8');
  const keys = Object.keys(combination).sort((a, b) => bytes(a).length - bytes(b).length || Buffer.compare(bytes(a), bytes(b)));
  return Object.fromEntries(keys.map((key) => [key, combination[key]]));
}

/**
 * One statement for every new variant: columns travel as arrays, the shared values as scalars.
 * Returns the rows as written (what a read would return), in order, so a create reads nothing back.
 */
export async function insertVariants(db: Db, storeId: string, prices: VariantPrices, created: NewVariant[]): Promise<VariantRow[]> {
  const now = new Date();
  const price = prices.price == null ? null : String(prices.price);
  const salePrice = prices.comparePrice == null ? null : String(prices.comparePrice);
  const rows = created.map((variant) => ({
    id: newId(),
    product_id: prices.productId,
    attributes: asJsonb(variant.attributes),
    price,
    sale_price: salePrice,
    stock: 0,
    sku: variant.sku,
    created_at: now,
    updated_at: now,
  }));
  await sql`INSERT INTO variants (store_id, id, product_id, position, attributes, price, sale_price, stock, sku, created_at, updated_at)
    SELECT ${storeId}, u.id, ${prices.productId}, u.position, u.attributes::jsonb, ${price}::numeric, ${salePrice}::numeric,
      0, u.sku, ${now}, ${now}
    FROM unnest(${rows.map((row) => row.id)}::text[], ${created.map((v) => v.position)}::int[], ${created.map((v) => JSON.stringify(v.attributes))}::text[],
      ${created.map((v) => v.sku)}::text[]) AS u(id, position, attributes, sku)`.execute(db);
  return rows;
}

/** Survivors get their new position and spelling; only rows that really change are touched. */
export async function moveVariants(db: Db, storeId: string, kept: { id: string; position: number; attributes: Combination }[]) {
  if (kept.length === 0) return;
  await sql`UPDATE variants AS v SET position = u.position, attributes = u.attributes::jsonb, updated_at = ${new Date()}
    FROM unnest(${kept.map((k) => k.id)}::text[], ${kept.map((k) => k.position)}::int[],
      ${kept.map((k) => JSON.stringify(k.attributes))}::text[]) AS u(id, position, attributes)
    WHERE v.store_id = ${storeId} AND v.id = u.id AND (v.position <> u.position OR v.attributes <> u.attributes::jsonb)`.execute(db);
}

export async function deleteVariants(db: Db, storeId: string, ids: string[]): Promise<void> {
  if (ids.length) await db.deleteFrom('variants').where('store_id', '=', storeId).where('id', 'in', ids).execute();
}

/** The variant's prices, locked (FOR UPDATE) until the transaction ends, or undefined. */
export function lockVariant(db: Db, storeId: string, productId: string, variantId: string) {
  return db
    .selectFrom('variants')
    .select(['price', 'sale_price'])
    .where('store_id', '=', storeId)
    .where('product_id', '=', productId)
    .where('id', '=', variantId)
    .forUpdate()
    .executeTakeFirst();
}

export function updateVariantRow(db: Db, storeId: string, variantId: string, changes: Updateable<VariantTable>): Promise<VariantRow> {
  return db
    .updateTable('variants')
    .set(changes)
    .where('store_id', '=', storeId)
    .where('id', '=', variantId)
    .returning(VARIANT_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** Removes the AttributeValue links of a product's variants. */
export async function deleteVariantValueLinks(db: Db, storeId: string, productId: string) {
  await sql`DELETE FROM variant_attribute_values WHERE store_id = ${storeId} AND variant_id IN (
    SELECT id FROM variants WHERE store_id = ${storeId} AND product_id = ${productId})`.execute(db);
}

/**
 * Inserts (variant, value) links given as two parallel arrays: one INSERT whatever their number
 * (two bound parameters, far below PostgreSQL's 65535 limit).
 */
export async function insertVariantValueLinks(db: Db, storeId: string, variantIds: string[], valueIds: string[]) {
  if (variantIds.length === 0) return;
  await sql`INSERT INTO variant_attribute_values (store_id, variant_id, attribute_value_id)
    SELECT ${storeId}, v, a FROM unnest(${variantIds}::text[], ${valueIds}::text[]) AS u(v, a)`.execute(db);
}
