import { sql } from 'kysely';
import { type Db, literal, type Tx, withCommit, withTx } from '../db/index.js';
import { etagOfCanonical } from '../http/index.js';
import { getProductsByIds } from './products.service.js';

/**
 * Stored product documents (migrations/0022): each product as GET returns it, as the canonical JSON its
 * event carries, with its ETag. Written at the end of every write that changes a product (through the
 * feed's append: src/events/record.ts), read by GET /products/{id} while the product row is still the
 * version the document was written for.
 */

/** What GET sends for a product: the `data` of its envelope, and its ETag. */
export interface StoredDocument {
  etag: string;
  body: string;
}

/** A product's document, written by the write that changed it: `body` is its canonical JSON. */
export interface NewDocument {
  id: string;
  body: string;
}

/** The product's stored document, unless the product row has changed since it was written (or it has none). */
export async function storedProduct(db: Db, storeId: string, id: string): Promise<StoredDocument | undefined> {
  const { rows } = await sql<StoredDocument>`SELECT d.etag, d.body FROM product_documents d
    JOIN products p ON p.store_id = d.store_id AND p.id = d.product_id AND p.xmin = d.written_by
    WHERE d.store_id = ${storeId} AND d.product_id = ${id}`.execute(db);
  return rows[0];
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
  if (last) {
    const values = rows.map(({ id, etag, body }) => `(${[id, etag, body].map(literal).join(', ')})`).join(', ');
    await withCommit(`${UPSERT_FROM} (VALUES ${values}) ${UPSERT_JOIN} ${literal(storeId)} ${UPSERT_END}`).execute(trx);
    return;
  }
  const [ids, etags, bodies] = [rows.map((row) => row.id), rows.map((row) => row.etag), rows.map((row) => row.body)];
  await sql`${sql.raw(UPSERT_FROM)} unnest(${ids}::text[], ${etags}::text[], ${bodies}::text[])
    ${sql.raw(UPSERT_JOIN)} ${storeId} ${sql.raw(UPSERT_END)}`.execute(trx);
}

// The upsert, from rows of (id, etag, body) joined to the store's products by id, in three parts around its
// source and its store (a literal when sent with the COMMIT, else parameters).
const UPSERT_FROM = `INSERT INTO product_documents (store_id, product_id, written_by, etag, body)
  SELECT p.store_id, p.id, p.xmin, d.etag, d.body FROM`;
const UPSERT_JOIN = 'AS d(id, etag, body) JOIN products p ON p.store_id =';
const UPSERT_END = `AND p.id = d.id
  ON CONFLICT (store_id, product_id) DO UPDATE SET written_by = EXCLUDED.written_by, etag = EXCLUDED.etag, body = EXCLUDED.body`;

/**
 * Writes the stored document of every product of the store that lacks a current one, `batch` products per
 * transaction, in id order: for products written before documents were kept (migration 0022) or past the
 * write door (bulk seeding). Returns how many it wrote.
 */
export async function rebuildProductDocuments(db: Db, storeId: string, batch = 500): Promise<number> {
  let after = '';
  let written = 0;
  for (;;) {
    const { rows } = await sql<{ id: string }>`SELECT p.id FROM products p
      LEFT JOIN product_documents d ON d.store_id = p.store_id AND d.product_id = p.id AND d.written_by = p.xmin
      WHERE p.store_id = ${storeId} AND p.id > ${after} AND d.product_id IS NULL ORDER BY p.id LIMIT ${batch}`.execute(db);
    if (rows.length === 0) return written;
    const ids = rows.map((row) => row.id);
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
