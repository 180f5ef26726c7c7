import { type Insertable, sql } from 'kysely';
import { upsertAttributeValues } from '../../src/attributes/attribute-values.sql.js';
import { upsertAttributesByName } from '../../src/attributes/attributes.sql.js';
import type { Db } from '../../src/db/database.js';
import type { DB } from '../../src/db/tables.js';
import { handleBaseOf } from '../../src/products/handles.js';
import { combinations, skuOf } from '../../src/products/options.js';
import { createProduct, type ProductContext } from '../../src/products/products.service.js';
import { DEFAULT_RETURN_CONFIG } from '../../src/products/products.sql.js';
import { newId } from '../../src/shared/ids.js';
import { inChunks, insertRows } from './bulk.js';
import { createdAtOf, PRODUCT_OPTIONS, productFixture } from './fixtures.js';

/**
 * The catalog: the first products through the service's own `createProduct` (the reference for
 * what a product looks like), the rest through multi-row INSERTs of exactly the rows
 * `createProduct` writes (same tables, id generator, handle rule, SKU rule, option attributes).
 */

/** How many products go through createProduct (the rest is bulk). */
export const SERVICE_PRODUCTS = 20;
const CHUNK = 1000;

export interface SeededProduct {
  id: string;
  title: string;
  price: number;
  comparePrice: number | null;
  sku: string;
}

export function productInput(i: number) {
  const fixture = productFixture(i);
  return { ...fixture, options: PRODUCT_OPTIONS };
}

/** The option values as AttributeValue ids, by the same upserts createProduct runs: option name -> value -> id. */
async function optionValueIds(db: Db, storeId: string): Promise<Map<string, Map<string, string>>> {
  const { ids: attributeIds } = await upsertAttributesByName(
    db,
    storeId,
    PRODUCT_OPTIONS.map((option) => option.name),
  );
  const byOption = new Map<string, Map<string, string>>();
  for (const [index, option] of PRODUCT_OPTIONS.entries()) {
    const ids = await upsertAttributeValues(db, storeId, attributeIds[index], option.values, 'append');
    byOption.set(option.name, new Map(option.values.map((value, j) => [value, ids[j]])));
  }
  return byOption;
}

interface VariantSource {
  id: string;
  handle: string;
  price: number;
  comparePrice: number | null;
  createdAt: Date;
}

/** The 9 variants and their 18 attribute links, as syncVariants/linkVariantValues write them; returns the SKUs. */
function variantRows(storeId: string, product: VariantSource, valueIds: Map<string, Map<string, string>>, rows: Rows): string[] {
  return combinations(PRODUCT_OPTIONS).map((attributes, position) => {
    const variantId = newId();
    const sku = skuOf(product.handle, attributes);
    rows.variants.push({
      store_id: storeId,
      id: variantId,
      product_id: product.id,
      position,
      attributes: JSON.stringify(attributes),
      price: product.price,
      sale_price: product.comparePrice,
      stock: 0,
      sku,
      created_at: product.createdAt,
      updated_at: product.createdAt,
    });
    for (const [name, value] of Object.entries(attributes)) {
      rows.links.push({ store_id: storeId, variant_id: variantId, attribute_value_id: valueIds.get(name)?.get(value) as string });
    }
    return sku;
  });
}

type Rows = {
  products: Insertable<DB['products']>[];
  variants: Insertable<DB['variants']>[];
  links: Insertable<DB['variant_attribute_values']>[];
};

function productRows(storeId: string, j: number, createdAt: Date, valueIds: Map<string, Map<string, string>>, rows: Rows): SeededProduct {
  const input = productInput(j);
  const id = newId();
  const handle = handleBaseOf(input.title);
  rows.products.push({
    store_id: storeId,
    id,
    title: input.title,
    handle,
    description: input.description,
    status: input.status,
    price: input.price,
    compare_price: input.comparePrice,
    total_stock: input.totalStock,
    images: input.images,
    options: JSON.stringify(input.options),
    meta_title: input.metaTitle,
    meta_description: input.metaDescription,
    return_config: JSON.stringify(DEFAULT_RETURN_CONFIG),
    created_at: createdAt,
    updated_at: createdAt,
  });
  const skus = variantRows(storeId, { id, handle, price: input.price, comparePrice: input.comparePrice, createdAt }, valueIds, rows);
  return { id, title: input.title, price: input.price, comparePrice: input.comparePrice, sku: skus[0] };
}

/** Products at positions [SERVICE_PRODUCTS, order.length) in chunks of CHUNK, each chunk one transaction. */
async function bulkProducts(db: Db, storeId: string, order: number[], now: number, seeded: SeededProduct[]): Promise<void> {
  const valueIds = await optionValueIds(db, storeId);
  const count = order.length;
  await inChunks(db, count - SERVICE_PRODUCTS, CHUNK, 'products', async (trx, start, end) => {
    const rows: Rows = { products: [], variants: [], links: [] };
    for (let k = start; k < end; k++) {
      const i = SERVICE_PRODUCTS + k;
      seeded.push(productRows(storeId, order[i], createdAtOf(i, count, 2, now), valueIds, rows));
    }
    await insertRows(trx, 'products', rows.products);
    await insertRows(trx, 'variants', rows.variants);
    await insertRows(trx, 'variant_attribute_values', rows.links);
  });
}

/**
 * `order` holds the fixture index of each product in creation order (bench/seed/skew.ts). Returns
 * every product in creation order with what the scenarios need to address and buy it.
 */
export async function seedCatalog(db: Db, storeId: string, order: number[], ctx: ProductContext): Promise<SeededProduct[]> {
  const seeded: SeededProduct[] = [];
  const now = Date.now();
  const count = order.length;
  for (let i = 0; i < Math.min(SERVICE_PRODUCTS, count); i++) {
    const product = await db.transaction().execute((trx) => createProduct(trx, storeId, productInput(order[i]), ctx));
    seeded.push({
      id: product.id,
      title: product.title,
      price: Number(product.price),
      comparePrice: product.comparePrice,
      sku: product.variants[0].sku ?? '',
    });
  }
  // The service's inserts above made the connection cache foreign-key check plans for near-empty
  // tables (sequential scans); statistics make the first bulk chunk plan them again, with indexes.
  await sql`ANALYZE`.execute(db);
  if (count > SERVICE_PRODUCTS) await bulkProducts(db, storeId, order, now, seeded);
  return seeded;
}
