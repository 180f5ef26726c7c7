import { isDeepStrictEqual } from 'node:util';
import { sql } from 'kysely';
import type { Db } from '../../src/db/database.js';
import { skuOf } from '../../src/products/options.js';
import type { Product } from '../../src/products/products.schema.js';
import { getProduct } from '../../src/products/products.service.js';

/**
 * Evidence that a product the import's batch applier seeded is what createProduct would have stored: both
 * are read back through the service's getProduct and their index-independent parts must be identical.
 */

export interface Fidelity {
  serviceProductId: string;
  bulkProductId: string;
  identical: boolean;
  /** the signature parts that differ (empty when identical) */
  differences: string[];
}

type Signature = Record<string, unknown>;

/** Every key (recursively into variants), the options, the return config, the SKU rule and the attribute links. */
async function signature(db: Db, storeId: string, product: Product): Promise<Signature> {
  const links = await sql<{ n: number }>`SELECT count(*)::int AS n FROM variant_attribute_values l
    JOIN variants v ON v.store_id = l.store_id AND v.id = l.variant_id
    WHERE v.store_id = ${storeId} AND v.product_id = ${product.id}`.execute(db);
  return {
    productKeys: Object.keys(product).sort(),
    variantKeys: product.variants.map((variant) => Object.keys(variant).sort()),
    options: product.options,
    returnConfig: product.returnConfig,
    variantAttributes: product.variants.map((variant) => variant.attributes),
    skusFollowRule: product.variants.every(
      (variant) => variant.sku === skuOf(product.handle, variant.attributes as Record<string, string>),
    ),
    variantPricesFromProduct: product.variants.every(
      (variant) => variant.price === product.price && variant.salePrice === product.comparePrice,
    ),
    variantStock: product.variants.map((variant) => variant.stock),
    handleFromTitle: product.handle.length > 0,
    attributeLinks: links.rows[0]?.n,
    collections: product.selectedCollection,
  };
}

export async function checkFidelity(db: Db, storeId: string, serviceProductId: string, bulkProductId: string): Promise<Fidelity> {
  const [service, bulk] = await Promise.all([getProduct(db, storeId, serviceProductId), getProduct(db, storeId, bulkProductId)]);
  const [a, b] = await Promise.all([signature(db, storeId, service), signature(db, storeId, bulk)]);
  const differences = Object.keys(a).filter((key) => !isDeepStrictEqual(a[key], b[key]));
  return { serviceProductId, bulkProductId, identical: differences.length === 0, differences };
}
