import type { Db, Tx } from '../db/index.js';
import { rebuildDocuments, writeDocuments } from '../reads/index.js';
import { etagOfCanonical } from '../shared/index.js';
import { PRODUCT_DOCUMENTS } from './product-documents.sql.js';
import { getProductsByIds } from './products.service.js';

/**
 * Stored product documents (migrations/0022; the shared rules: src/reads/stored-documents.ts): each product as
 * GET returns it, as the canonical JSON its event carries, with its ETag. Written at the end of every write that
 * changes a product (through the feed's append: src/events/record.ts), read by GET /products/{id}
 * (storedProduct) and the lists (listProductTexts) while the product row is still the version the document
 * was written for.
 */

/** A product's document, written by the write that changed it: `body` is its canonical JSON. */
export interface NewDocument {
  id: string;
  body: string;
}

/**
 * Writes the products' documents for their rows as they are now (a product deleted by the write gets none).
 * `last`: nothing of the write changes a product after this, so the statement may travel with the COMMIT.
 * Product outputs are built in sorted key order, so the body is canonical JSON and its ETag is taken over it.
 */
export function writeProductDocuments(trx: Tx, storeId: string, documents: NewDocument[], last: boolean): Promise<void> {
  return writeDocuments(trx, PRODUCT_DOCUMENTS, storeId, documents, { last, etagOfBody: etagOfCanonical });
}

/**
 * Writes the stored document of every product of the store that lacks a current one, `batch` products per
 * transaction, in id order: for products written before documents were kept (migration 0022) or past the
 * write door (bulk seeding). Returns how many it wrote.
 */
export function rebuildProductDocuments(db: Db, storeId: string, batch = 500): Promise<number> {
  return rebuildDocuments(
    db,
    PRODUCT_DOCUMENTS,
    storeId,
    async (trx, ids) => {
      const products = await getProductsByIds(trx, storeId, ids);
      const documents = products.map((product) => ({ id: product.id, body: JSON.stringify(product) }));
      await writeProductDocuments(trx, storeId, documents, false);
    },
    batch,
  );
}
