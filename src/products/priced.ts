import type { Db } from '../db/index.js';
import { type PriceContextQuery, resolveProductPrices } from '../price-lists/index.js';
import { storedProduct } from './product-documents.sql.js';
import type { Product } from './products.schema.js';
import { getProduct } from './products.service.js';

/**
 * GET /products/{id}?currency=&customerId= (CONTRACT §14): the product as GET returns it, each variant (or the
 * simple product itself) with its `resolvedPrice` by the rule of src/price-lists/resolve.ts.
 */
export async function getPricedProduct(db: Db, storeId: string, id: string, query: PriceContextQuery): Promise<Product> {
  const stored = await storedProduct(db, storeId, id);
  const product: Product = stored ? JSON.parse(stored.body) : await getProduct(db, storeId, id);
  const { rows } = await resolveProductPrices(db, storeId, [product.id], query);
  const byItem = new Map(rows.map((row) => [row.variantId ?? row.productId, row]));
  if (product.variants.length === 0) return { ...product, resolvedPrice: byItem.get(product.id) };
  return { ...product, variants: product.variants.map((variant) => ({ ...variant, resolvedPrice: byItem.get(variant.id) })) };
}
