import type { Db } from '../db/index.js';
import { type PriceContextQuery, type ResolvedPrice, resolvedPricesOfProduct } from '../price-lists/index.js';
import type { StoredDocument } from '../reads/index.js';
import { canonicalJson, etagOfCanonical } from '../shared/index.js';
import { withResolvedPrices } from './priced-document.js';
import { storedProduct } from './product-documents.sql.js';
import { getProduct } from './products.service.js';

/**
 * GET /products/{id}?currency=&customerId= (CONTRACT §14): the product as GET returns it, each variant (or the
 * simple product itself) with its `resolvedPrice` by the rule of src/price-lists/resolve.ts, as a document to
 * send as stored: its canonical JSON and that text's ETag (the ETag `etagOf` gives the same data).
 *
 * The prices are read while the product's document is, each in its batch (the store's GETs; the store's priced
 * GETs of the same currency and buyer), and the stored document is given the prices in its text
 * (priced-document.ts), neither parsed nor written again (issue 40: the priced GET cost 4× the plain one).
 */
export async function pricedProductDocument(db: Db, storeId: string, id: string, query: PriceContextQuery): Promise<StoredDocument> {
  const pricing = resolvedPricesOfProduct(db, storeId, id, query);
  // awaited below: a product that is not there answers 404 before a bad currency or customer answers 400
  pricing.catch(() => undefined);
  const stored = await storedProduct(db, storeId, id);
  const product = stored ? undefined : await getProduct(db, storeId, id);
  const rows = await pricing;
  const own = rows.find((row) => row.variantId === null);
  const byVariant = new Map(rows.map((row) => [row.variantId, row]));
  const body = stored
    ? withResolvedPrices(stored.body, own && canonicalJson(own), (variantId) => {
        const row = byVariant.get(variantId);
        return row && canonicalJson(row);
      })
    : canonicalJson(product && withPrices(product, own, byVariant));
  return { etag: etagOfCanonical(body), body };
}

/** A product built from its rows (no current document), given its prices. */
function withPrices<P extends { variants: { id: string }[] }>(
  product: P,
  own: ResolvedPrice | undefined,
  byVariant: Map<string | null, ResolvedPrice>,
) {
  if (product.variants.length === 0) return { ...product, resolvedPrice: own };
  return { ...product, variants: product.variants.map((variant) => ({ ...variant, resolvedPrice: byVariant.get(variant.id) })) };
}
