import { type Db, type Tx, withTx } from '../db/index.js';
import { etagOfCanonical } from '../shared/index.js';
import { productsWithoutDocument, upsertProductDocuments } from './product-documents.sql.js';
import { getProductsByIds } from './products.service.js';

/**
 * Stored product documents (migrations/0022): each product as GET returns it, as the canonical JSON its
 * event carries, with its ETag. Written at the end of every write that changes a product (through the
 * feed's append: src/events/record.ts), read by GET /products/{id} (storedProduct, product-documents.sql.ts)
 * while the product row is still the version the document was written for.
 */

/** A product's document, written by the write that changed it: `body` is its canonical JSON. */
export interface NewDocument {
  id: string;
  body: string;
}

/**
 * Writes the products' documents for their rows as they are now (a product deleted by the write gets none).
 * `last`: nothing of the write changes a product after this, so the statement may travel with the COMMIT.
 */
export async function writeProductDocuments(trx: Tx, storeId: string, documents: NewDocument[], last: boolean): Promise<void> {
  // One row per product (an import batch may name a product twice): the last is the newest.
  const byId = new Map(documents.map((document) => [document.id, document]));
  if (byId.size === 0) return;
  const rows = [...byId.values()].map(({ id, body }) => ({ id, etag: etagOfCanonical(body), body }));
  await upsertProductDocuments(trx, storeId, rows, last);
}

/**
 * Writes the stored document of every product of the store that lacks a current one, `batch` products per
 * transaction, in id order: for products written before documents were kept (migration 0022) or past the
 * write door (bulk seeding). Returns how many it wrote.
 */
export async function rebuildProductDocuments(db: Db, storeId: string, batch = 500): Promise<number> {
  let after = '';
  let written = 0;
  for (;;) {
    const ids = await productsWithoutDocument(db, storeId, after, batch);
    if (ids.length === 0) return written;
    await withTx(db, async (trx) => {
      const products = await getProductsByIds(trx, storeId, ids);
      await writeProductDocuments(
        trx,
        storeId,
        products.map((product) => ({ id: product.id, body: JSON.stringify(product) })),
        false,
      );
    });
    written += ids.length;
    after = ids[ids.length - 1];
  }
}
