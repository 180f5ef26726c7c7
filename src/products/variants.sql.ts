import { sql, type Updateable } from 'kysely';
import type { DB, Db } from '../db/index.js';
import { ilikeAny, type ListSpec } from '../reads/index.js';
import { newId } from '../shared/index.js';
import type { Combination } from './options.js';
import type { VARIANT_SORTS } from './products.schema.js';
import { VARIANT_COLUMNS, type VariantRow } from './products.sql.js';
import type { VariantValues } from './variant-entries.js';

/** The SQL of variants and of their links to AttributeValues (variant_attribute_values). */

/** The columns of a variant's settable values (VariantValues). */
const VALUE_COLUMNS = ['price', 'sale_price', 'stock', 'sku', 'barcode', 'weight_grams', 'image', 'custom_fields'] as const;

/** A variant to create: its place, combination and values (prices, stock, SKU). */
export interface NewVariant {
  position: number;
  attributes: Combination;
  values: VariantValues;
}

/** GET /products/{id}/variants: one product's variants (the `(store_id, product_id, …)` indexes serve its sorts). */
export const variantListSpec: ListSpec<typeof VARIANT_SORTS> = {
  path: '/products/{id}/variants',
  sorts: { createdAt: sql`created_at`, updatedAt: sql`updated_at`, position: sql`position` },
  idColumn: sql`id`,
  search: ilikeAny(['sku']),
};

export function selectProductVariants(db: Db, storeId: string, productId: string) {
  return db.selectFrom('variants').select(VARIANT_COLUMNS).where('store_id', '=', storeId).where('product_id', '=', productId);
}

export function selectCombinations(db: Db, storeId: string, productId: string) {
  return db
    .selectFrom('variants')
    .select(['id', 'attributes', ...VALUE_COLUMNS])
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
export function insertVariants(
  db: Db,
  storeId: string,
  productId: string,
  created: NewVariant[],
  linksOf?: (rows: VariantRow[]) => ValueLinks,
): Promise<VariantRow[]> {
  return insertVariantsOf(
    db,
    storeId,
    created.map((variant) => ({ ...variant, productId })),
    linksOf,
  );
}

/** Links of variants to AttributeValues, as two parallel columns (variant id, AttributeValue id). */
export interface ValueLinks {
  variantIds: string[];
  valueIds: string[];
}

/**
 * insertVariants for the variants of many products (an import batch's new products): still one statement.
 * With `linksOf`, the links of variants to their AttributeValues (told the rows about to be written, ids
 * included) are inserted by the same statement: their foreign keys are checked at its end, when the
 * variants are there.
 */
export async function insertVariantsOf(
  db: Db,
  storeId: string,
  created: (NewVariant & { productId: string; createdAt?: Date })[],
  linksOf?: (rows: VariantRow[]) => ValueLinks,
): Promise<VariantRow[]> {
  if (created.length === 0) return [];
  const now = new Date();
  const rows = created.map((variant) => ({
    id: newId(),
    product_id: variant.productId,
    attributes: asJsonb(variant.attributes),
    ...variant.values,
    created_at: variant.createdAt ?? now,
    updated_at: variant.createdAt ?? now,
  }));
  const times = rows.map((row) => row.created_at.toISOString());
  const column = <K extends keyof VariantValues>(key: K) => created.map((variant) => variant.values[key]);
  const links = linksOf?.(rows) ?? { variantIds: [], valueIds: [] };
  await sql`WITH links AS (INSERT INTO variant_attribute_values (store_id, variant_id, attribute_value_id)
      SELECT ${storeId}, l.v, l.a FROM unnest(${links.variantIds}::text[], ${links.valueIds}::text[]) AS l(v, a))
    INSERT INTO variants (store_id, id, product_id, position, attributes, price, sale_price, stock, sku,
      barcode, weight_grams, image, custom_fields, created_at, updated_at)
    SELECT ${storeId}, u.id, u.product_id, u.position, u.attributes::jsonb, u.price::numeric, u.sale_price::numeric, u.stock, u.sku,
      u.barcode, u.weight_grams::numeric, u.image, u.custom_fields::jsonb, u.created_at::timestamptz, u.created_at::timestamptz
    FROM unnest(${rows.map((row) => row.id)}::text[], ${rows.map((row) => row.product_id)}::text[], ${created.map((v) => v.position)}::int[],
      ${created.map((v) => JSON.stringify(v.attributes))}::text[], ${column('price')}::text[],
      ${column('sale_price')}::text[], ${column('stock')}::int[], ${column('sku')}::text[], ${column('barcode')}::text[],
      ${column('weight_grams')}::text[], ${column('image')}::text[], ${created.map((v) => JSON.stringify(v.values.custom_fields))}::text[], ${times}::text[])
      AS u(id, product_id, position, attributes, price, sale_price, stock, sku, barcode, weight_grams, image, custom_fields, created_at)`.execute(
    db,
  );
  return rows;
}

/** Sets the values (prices, stock, SKU, …) of existing variants, one statement for all of them. */
export async function updateVariantValues(db: Db, storeId: string, updates: { id: string; values: VariantValues }[]): Promise<void> {
  if (updates.length === 0) return;
  const column = <K extends keyof VariantValues>(key: K) => updates.map((update) => update.values[key]);
  await sql`UPDATE variants AS v SET price = u.price::numeric, sale_price = u.sale_price::numeric, stock = u.stock, sku = u.sku,
      barcode = u.barcode, weight_grams = u.weight_grams::numeric, image = u.image, custom_fields = u.custom_fields::jsonb,
      updated_at = ${new Date()}
    FROM unnest(${updates.map((update) => update.id)}::text[], ${column('price')}::text[], ${column('sale_price')}::text[],
      ${column('stock')}::int[], ${column('sku')}::text[], ${column('barcode')}::text[], ${column('weight_grams')}::text[],
      ${column('image')}::text[], ${updates.map((update) => JSON.stringify(update.values.custom_fields))}::text[])
      AS u(id, price, sale_price, stock, sku, barcode, weight_grams, image, custom_fields)
    WHERE v.store_id = ${storeId} AND v.id = u.id`.execute(db);
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

/** How many variants the product has. */
export async function countVariants(db: Db, storeId: string, productId: string): Promise<number> {
  const row = await db
    .selectFrom('variants')
    .where('store_id', '=', storeId)
    .where('product_id', '=', productId)
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The product's variant, to be locked (FOR UPDATE) until the transaction ends; the caller picks the columns. */
const variantForUpdate = (db: Db, storeId: string, productId: string, variantId: string) =>
  db.selectFrom('variants').where('store_id', '=', storeId).where('product_id', '=', productId).where('id', '=', variantId).forUpdate();

/** The variant's values, locked until the transaction ends, or undefined. */
export function lockVariant(db: Db, storeId: string, productId: string, variantId: string) {
  return variantForUpdate(db, storeId, productId, variantId).select(VALUE_COLUMNS).executeTakeFirst();
}

/** The variant's row as a read returns it, locked until the transaction ends, or undefined. */
export function lockVariantRow(db: Db, storeId: string, productId: string, variantId: string): Promise<VariantRow | undefined> {
  return variantForUpdate(db, storeId, productId, variantId).select(VARIANT_COLUMNS).executeTakeFirst();
}

export function updateVariantRow(db: Db, storeId: string, variantId: string, changes: Updateable<DB['variants']>): Promise<VariantRow> {
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
