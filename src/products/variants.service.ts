import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { Tx } from '../db/transaction.js';
import { notFound, validationError } from '../errors.js';
import { isId, newId } from '../shared/ids.js';
import { linkVariantValues } from './option-attributes.js';
import { type Combination, type ProductOption, planVariants, skuOf } from './options.js';
import type { UpdateVariantInput, Variant } from './products.schema.js';
import { toVariantOutput, VARIANT_COLUMNS } from './products.sql.js';

/** The product fields new variants start from. */
export interface VariantDefaults {
  id: string;
  handle: string;
  price: number | string | null;
  comparePrice: number | string | null;
}

/** Variants of many products in one query: productId -> variants in position order. */
export async function variantsOfProducts(db: Db, storeId: string, productIds: string[]): Promise<Map<string, Variant[]>> {
  const byProduct = new Map<string, Variant[]>(productIds.map((id) => [id, []]));
  if (productIds.length === 0) return byProduct;
  const rows = await db
    .selectFrom('variants')
    .select(VARIANT_COLUMNS)
    .where('store_id', '=', storeId)
    .where('product_id', 'in', productIds)
    .orderBy('product_id')
    .orderBy('position')
    .execute();
  for (const row of rows) byProduct.get(row.product_id)?.push(toVariantOutput(row));
  return byProduct;
}

async function insertVariants(db: Db, storeId: string, product: VariantDefaults, created: { position: number; attributes: Combination }[]) {
  const ids = created.map(() => newId());
  const now = new Date();
  // One statement for every new variant: columns travel as arrays, the shared values as scalars.
  await sql`INSERT INTO variants (store_id, id, product_id, position, attributes, price, sale_price, stock, sku, created_at, updated_at)
    SELECT ${storeId}, u.id, ${product.id}, u.position, u.attributes::jsonb, ${product.price}::numeric, ${product.comparePrice}::numeric,
      0, u.sku, ${now}, ${now}
    FROM unnest(${ids}::text[], ${created.map((v) => v.position)}::int[], ${created.map((v) => JSON.stringify(v.attributes))}::text[],
      ${created.map((v) => skuOf(product.handle, v.attributes))}::text[]) AS u(id, position, attributes, sku)`.execute(db);
  return ids;
}

/** Survivors get their new position and spelling; only rows that really change are touched. */
async function moveVariants(db: Db, storeId: string, kept: { id: string; position: number; attributes: Combination }[]) {
  if (kept.length === 0) return;
  await sql`UPDATE variants AS v SET position = u.position, attributes = u.attributes::jsonb, updated_at = ${new Date()}
    FROM unnest(${kept.map((k) => k.id)}::text[], ${kept.map((k) => k.position)}::int[],
      ${kept.map((k) => JSON.stringify(k.attributes))}::text[]) AS u(id, position, attributes)
    WHERE v.store_id = ${storeId} AND v.id = u.id AND (v.position <> u.position OR v.attributes <> u.attributes::jsonb)`.execute(db);
}

/**
 * Makes a product's variants the combinations of `options` (CONTRACT §6): a surviving combination
 * keeps its variant (id, price, stock, SKU), a new one is created from the product's price and
 * compare price with stock 0, a vanished one is deleted. A fixed number of statements, inside
 * the product's write (its row is new or locked).
 */
export async function syncVariants(db: Tx, storeId: string, product: VariantDefaults, options: ProductOption[]): Promise<void> {
  const existing = await db
    .selectFrom('variants')
    .select(['id', 'attributes'])
    .where('store_id', '=', storeId)
    .where('product_id', '=', product.id)
    .execute();
  const plan = planVariants(options, existing);
  if (plan.remove.length) await db.deleteFrom('variants').where('store_id', '=', storeId).where('id', 'in', plan.remove).execute();
  await moveVariants(db, storeId, plan.keep);
  const createdIds = plan.create.length ? await insertVariants(db, storeId, product, plan.create) : [];
  const all = [...plan.keep, ...plan.create.map((variant, index) => ({ id: createdIds[index], attributes: variant.attributes }))];
  await linkVariantValues(db, storeId, product.id, all, options);
}

async function assertProduct(db: Db, storeId: string, productId: string): Promise<void> {
  const found = isId(productId)
    ? await db.selectFrom('products').select('id').where('store_id', '=', storeId).where('id', '=', productId).executeTakeFirst()
    : undefined;
  if (!found) throw notFound('Product');
}

export async function listVariants(db: Db, storeId: string, productId: string): Promise<Variant[]> {
  await assertProduct(db, storeId, productId);
  return (await variantsOfProducts(db, storeId, [productId])).get(productId) ?? [];
}

/** salePrice is the variant's compare-at price: like the product's, it may not be below the price. */
function checkVariantPrices(current: { price: string | null; sale_price: string | null }, input: UpdateVariantInput): void {
  const price = input.price !== undefined ? input.price : current.price;
  const salePrice = input.salePrice !== undefined ? input.salePrice : current.sale_price;
  if (price != null && salePrice != null && Number(salePrice) < Number(price)) {
    const field = input.salePrice !== undefined ? 'salePrice' : 'price';
    throw validationError([{ field, in: 'body', message: 'salePrice must be greater than or equal to price' }]);
  }
}

/**
 * Updates one variant, locked first (hence `Tx`); the product's updatedAt moves too, so a sync job
 * polling products sees the change.
 */
export async function updateVariant(db: Tx, storeId: string, productId: string, variantId: string, input: UpdateVariantInput) {
  const current = await db
    .selectFrom('variants')
    .select(['price', 'sale_price'])
    .where('store_id', '=', storeId)
    .where('product_id', '=', productId)
    .where('id', '=', variantId)
    .forUpdate()
    .executeTakeFirst();
  if (!current) throw notFound('Variant');
  checkVariantPrices(current, input);
  const now = new Date();
  const row = await db
    .updateTable('variants')
    .set({
      ...(input.price !== undefined ? { price: input.price } : {}),
      ...(input.salePrice !== undefined ? { sale_price: input.salePrice } : {}),
      ...(input.stock !== undefined ? { stock: input.stock } : {}),
      ...(input.sku !== undefined ? { sku: input.sku?.trim() || null } : {}),
      updated_at: now,
    })
    .where('store_id', '=', storeId)
    .where('id', '=', variantId)
    .returning(VARIANT_COLUMNS)
    .executeTakeFirstOrThrow();
  await db.updateTable('products').set({ updated_at: now }).where('store_id', '=', storeId).where('id', '=', productId).execute();
  return toVariantOutput(row);
}
