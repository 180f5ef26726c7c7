import { type InsertObject, type Selectable, sql, type Updateable } from 'kysely';
import { collectionIdsColumn } from '../collections/index.js';
import type { DB, Db } from '../db/index.js';
import { customFieldsOutput, iso, numberOrNull } from '../shared/index.js';
import type { Product, ReturnConfig, Variant } from './products.schema.js';

/**
 * Product SQL shared by the service and by other resources (collections list products through
 * `listProducts`): every query names the unaliased table `products`, so a condition built
 * elsewhere over `products.*` composes with it.
 */

export const PRODUCT_COLUMNS = [
  'products.id',
  'products.title',
  'products.handle',
  'products.description',
  'products.status',
  'products.badge',
  'products.price',
  'products.compare_price',
  'products.total_stock',
  'products.images',
  'products.size_chart',
  'products.attribute_set_id',
  'products.options',
  'products.meta_title',
  'products.meta_description',
  'products.meta_keywords',
  'products.return_config',
  'products.average_rating',
  'products.total_reviews',
  'products.vendor',
  'products.product_type',
  'products.tags',
  'products.sku',
  'products.barcode',
  'products.weight_grams',
  'products.custom_fields',
  'products.created_at',
  'products.updated_at',
] as const;
/** What PRODUCT_COLUMNS read: every column but the key's store, the import's digest and the search index's text. */
export type ProductRow = Omit<Selectable<DB['products']>, 'store_id' | 'import_digest' | 'import_digest_at' | 'search_text'>;

export const VARIANT_COLUMNS = [
  'id',
  'product_id',
  'attributes',
  'price',
  'sale_price',
  'stock',
  'sku',
  'barcode',
  'weight_grams',
  'image',
  'custom_fields',
  'created_at',
  'updated_at',
] as const;
export type VariantRow = Pick<Selectable<DB['variants']>, (typeof VARIANT_COLUMNS)[number]>;

export const DEFAULT_RETURN_CONFIG: ReturnConfig = {
  useGlobalConfig: true,
  returnable: true,
  exchangeable: true,
  customReturnWindow: null,
};

export function selectProducts(db: Db, storeId: string) {
  return db.selectFrom('products').select(PRODUCT_COLUMNS).where('products.store_id', '=', storeId);
}

/** The stored row, locked (FOR UPDATE) until the transaction ends, or undefined. */
export function lockProduct(db: Db, storeId: string, id: string) {
  return selectProducts(db, storeId).where('products.id', '=', id).forUpdate().executeTakeFirst();
}

/**
 * A new product's search text, from the values its INSERT writes and the SKUs its variants will have, by the
 * function the database's trigger computes it with (migrations/0060): supplied with the INSERT, the row is
 * written once instead of again when the variants arrive; the database checks it at commit (0061).
 */
export function newSearchText(title: string, handle: string, sku: string | null, variantSkus: (string | null)[]) {
  return sql<string>`storefront_product_search_text(${title}, ${handle}, ${sku}::text,
    (SELECT string_agg(s, E'\n' ORDER BY s) FROM unnest(${variantSkus}::text[]) AS s))`;
}

/** INSERT … ON CONFLICT (store_id, handle) DO NOTHING: a taken handle returns nothing instead of aborting the transaction. */
export async function insertProductRow(db: Db, values: InsertObject<DB, 'products'>): Promise<ProductRow | undefined> {
  const [row] = await insertProductRows(db, [values]);
  return row;
}

/**
 * Many products in one statement (an import batch), ON CONFLICT (store_id, handle) DO NOTHING: the rows
 * returned are those inserted, in no particular order; a product whose handle was taken is not among them.
 */
export function insertProductRows(db: Db, values: InsertObject<DB, 'products'>[]): Promise<ProductRow[]> {
  return db
    .insertInto('products')
    .values(values)
    .onConflict((oc) => oc.columns(['store_id', 'handle']).doNothing())
    .returning(PRODUCT_COLUMNS)
    .execute();
}

/**
 * Sets the row's columns and moves its updatedAt; an import write (`importDigest`: its line's digest) also
 * records the line and that updatedAt, which is how a later identical line sees that nothing changed since.
 */
export function updateProductRow(db: Db, storeId: string, id: string, changes: Updateable<DB['products']>, importDigest?: string) {
  const at = new Date();
  return db
    .updateTable('products')
    .set({ ...changes, updated_at: at, ...(importDigest !== undefined ? { import_digest: importDigest, import_digest_at: at } : {}) })
    .where('store_id', '=', storeId)
    .where('id', '=', id)
    .returning(['id', 'handle'])
    .executeTakeFirstOrThrow();
}

export async function productExists(db: Db, storeId: string, id: string): Promise<boolean> {
  const row = await db.selectFrom('products').select('id').where('store_id', '=', storeId).where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

/** Moves the product's updatedAt, e.g. when one of its variants changed. */
export async function touchProduct(db: Db, storeId: string, id: string, at: Date): Promise<void> {
  await db.updateTable('products').set({ updated_at: at }).where('store_id', '=', storeId).where('id', '=', id).execute();
}

/** The store's product handles a generated `base` could collide with: `base` and `base-…`. */
export async function handlesLike(db: Db, storeId: string, base: string): Promise<Set<string>> {
  // A generated slug holds only [a-z0-9-], so it needs no LIKE escaping.
  const rows = await db
    .selectFrom('products')
    .select('handle')
    .where('store_id', '=', storeId)
    .where((eb) => eb.or([eb('handle', '=', base), eb('handle', 'like', `${base}-%`)]))
    .execute();
  return new Set(rows.map((row) => row.handle));
}

/** A product an import line's handle matches: its id, and what the import needs to see whether the line changes it. */
export interface ImportMatch {
  id: string;
  handle: string;
  attribute_set_id: string | null;
  /** the digest of the last import line applied, while nothing changed the product since (else null) */
  import_digest: string | null;
}

/**
 * The store's products with these handles (an import's natural key), in one query. One LIMIT 1 probe per
 * handle: with `handle IN (…)` the planner preferred the trigram GIN index (store_id, handle), whose posting
 * lists hold every handle sharing a trigram ("import-…"): 0.7 s for 100 handles among 10,000 products,
 * against 0.2 ms through the unique btree that a single-row probe uses.
 */
export async function importMatchesByHandle(db: Db, storeId: string, handles: string[]): Promise<ImportMatch[]> {
  if (handles.length === 0) return [];
  const { rows } = await sql<ImportMatch>`SELECT p.* FROM unnest(${handles}::text[]) AS h(handle)
    CROSS JOIN LATERAL (SELECT id, handle, attribute_set_id, CASE WHEN import_digest_at = updated_at THEN import_digest END AS import_digest
      FROM products WHERE store_id = ${storeId} AND handle = h.handle LIMIT 1) AS p`.execute(db);
  return rows;
}

/** Whether another product of the store than `productId` has `handle`. */
export async function handleTakenByOther(db: Db, storeId: string, productId: string, handle: string): Promise<boolean> {
  const other = await db
    .selectFrom('products')
    .select('id')
    .where('store_id', '=', storeId)
    .where('handle', '=', handle)
    .where('id', '<>', productId)
    .executeTakeFirst();
  return other !== undefined;
}

/**
 * Each product's variants as one JSON column, built from VARIANT_COLUMNS so the row maps like a
 * variants query would: numbers arrive as JSON numbers, timestamps as ISO strings.
 */
const variantRowsColumn = sql<VariantRow[]>`(SELECT coalesce(json_agg(json_build_object(${sql.raw(
  VARIANT_COLUMNS.map((column) => `'${column}', v.${column}`).join(', '),
)}) ORDER BY v.position), '[]'::json) FROM variants v WHERE v.store_id = products.store_id AND v.product_id = products.id)`;

/** Products with their variants and manual collections, in one statement: a read is one round trip. */
export function selectProductsWithRelations(db: Db, storeId: string) {
  return selectProducts(db, storeId).select([variantRowsColumn.as('variant_rows'), collectionIdsColumn().as('collection_ids')]);
}

export type ProductWithRelationsRow = ProductRow & { variant_rows: VariantRow[]; collection_ids: string[] };

/**
 * Outputs are built with their keys in sorted order (and a variant's attributes sorted): JSON.stringify of
 * one is then its canonical JSON (src/http/canonical-json.ts), the text its ETag is taken over, so the stored
 * document (products.documents.ts) is written without a second serialization.
 */
export function toVariantOutput(row: VariantRow): Variant {
  return {
    attributes: sortedRecord(row.attributes),
    barcode: row.barcode,
    createdAt: iso(row.created_at),
    customFields: customFieldsOutput(row.custom_fields),
    id: row.id,
    image: row.image,
    price: numberOrNull(row.price),
    productId: row.product_id,
    salePrice: numberOrNull(row.sale_price),
    sku: row.sku,
    stock: row.stock,
    updatedAt: iso(row.updated_at),
    weightGrams: numberOrNull(row.weight_grams),
  };
}

/** The same record with its keys in sorted order (jsonb hands them out shortest first); `__proto__` stays a key. */
function sortedRecord(record: Record<string, string>): Record<string, string> {
  const keys = Object.keys(record);
  if (keys.length < 2) return record;
  return Object.fromEntries(keys.sort().map((key) => [key, record[key]]));
}

/** Keys in sorted order: see toVariantOutput. */
export function toProductOutput(row: ProductRow, variants: Variant[], collectionIds: string[]): Product {
  const comparePrice = numberOrNull(row.compare_price);
  const returnConfig = { ...DEFAULT_RETURN_CONFIG, ...row.return_config };
  return {
    attributeSet: row.attribute_set_id,
    averageRating: Number(row.average_rating),
    badge: row.badge,
    barcode: row.barcode,
    comparePrice,
    createdAt: iso(row.created_at),
    customFields: customFieldsOutput(row.custom_fields),
    description: row.description,
    handle: row.handle,
    id: row.id,
    image: row.images,
    metaDescription: row.meta_description,
    metaKeywords: row.meta_keywords,
    metaTitle: row.meta_title,
    options: row.options.map((option) => ({ name: option.name, values: option.values })),
    price: numberOrNull(row.price),
    productType: row.product_type,
    returnConfig: {
      customReturnWindow: returnConfig.customReturnWindow,
      exchangeable: returnConfig.exchangeable,
      returnable: returnConfig.returnable,
      useGlobalConfig: returnConfig.useGlobalConfig,
    },
    salePrice: comparePrice,
    selectedCollection: collectionIds,
    sizeChart: row.size_chart,
    sku: row.sku,
    status: row.status,
    tags: row.tags,
    title: row.title,
    totalReviews: row.total_reviews,
    totalStock: row.total_stock,
    updatedAt: iso(row.updated_at),
    variants,
    vendor: row.vendor,
    weightGrams: numberOrNull(row.weight_grams),
  };
}
