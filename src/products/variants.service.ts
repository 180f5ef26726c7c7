import type { Db, Tx } from '../db/index.js';
import { notFound, validationError } from '../errors.js';
import { isId, suppliedColumns } from '../shared/index.js';
import { linkVariantValues } from './option-attributes.js';
import { type ProductOption, planVariants, skuOf } from './options.js';
import type { UpdateVariantInput, Variant } from './products.schema.js';
import { productExists, touchProduct, toVariantOutput, type VariantRow } from './products.sql.js';
import {
  deleteVariants,
  insertVariants,
  lockVariant,
  moveVariants,
  selectCombinations,
  selectVariantsOf,
  updateVariantRow,
} from './variants.sql.js';

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
  for (const row of await selectVariantsOf(db, storeId, productIds)) byProduct.get(row.product_id)?.push(toVariantOutput(row));
  return byProduct;
}

/**
 * Makes a product's variants the combinations of `options` (CONTRACT §6): a surviving combination
 * keeps its variant (id, price, stock, SKU), a new one is created from the product's price and
 * compare price with stock 0, a vanished one is deleted. A fixed number of statements, inside
 * the product's write (its row is new or locked); a new product (`fresh`) has nothing to read,
 * move or unlink. Returns the created variants' rows as written.
 */
export async function syncVariants(
  db: Tx,
  storeId: string,
  product: VariantDefaults,
  options: ProductOption[],
  fresh = false,
): Promise<VariantRow[]> {
  const plan = planVariants(options, fresh ? [] : await selectCombinations(db, storeId, product.id));
  await deleteVariants(db, storeId, plan.remove);
  await moveVariants(db, storeId, plan.keep);
  const created = plan.create.map((variant) => ({ ...variant, sku: skuOf(product.handle, variant.attributes) }));
  const prices = { productId: product.id, price: product.price, comparePrice: product.comparePrice };
  const rows = created.length ? await insertVariants(db, storeId, prices, created) : [];
  const all = [...plan.keep, ...rows.map((row, index) => ({ id: row.id, attributes: created[index].attributes }))];
  await linkVariantValues(db, storeId, product.id, all, options, fresh);
  return rows;
}

export async function listVariants(db: Db, storeId: string, productId: string): Promise<Variant[]> {
  if (!isId(productId) || !(await productExists(db, storeId, productId))) throw notFound('Product');
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
  const current = await lockVariant(db, storeId, productId, variantId);
  if (!current) throw notFound('Variant');
  checkVariantPrices(current, input);
  const now = new Date();
  const row = await updateVariantRow(db, storeId, variantId, {
    ...suppliedColumns({
      price: input.price,
      sale_price: input.salePrice,
      stock: input.stock,
      // an empty or blank SKU clears it
      sku: input.sku === undefined ? undefined : input.sku?.trim() || null,
    }),
    updated_at: now,
  });
  await touchProduct(db, storeId, productId, now);
  return toVariantOutput(row);
}
