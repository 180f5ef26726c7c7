import { sql } from 'kysely';
import { type Db, literal, type Tx, withCommit } from '../db/index.js';

/** The SQL of stored product documents (migrations/0022; the rules are in products.documents.ts). */

/** What GET sends for a product: the `data` of its envelope, and its ETag. */
export interface StoredDocument {
  etag: string;
  body: string;
}

/** A document as it is written: the product's id, its ETag and its canonical JSON. */
export interface DocumentRow {
  id: string;
  etag: string;
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
 * Upserts the documents for the products' rows as they are now (a product no longer there gets none).
 * `last`: the statement travels with the COMMIT (its values as literals).
 */
export async function upsertProductDocuments(trx: Tx, storeId: string, rows: DocumentRow[], last: boolean): Promise<void> {
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

/** Up to `limit` ids of the store's products after `after` (in id order) that lack a current document. */
export async function productsWithoutDocument(db: Db, storeId: string, after: string, limit: number): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`SELECT p.id FROM products p
    LEFT JOIN product_documents d ON d.store_id = p.store_id AND d.product_id = p.id AND d.written_by = p.xmin
    WHERE p.store_id = ${storeId} AND p.id > ${after} AND d.product_id IS NULL ORDER BY p.id LIMIT ${limit}`.execute(db);
  return rows.map((row) => row.id);
}
