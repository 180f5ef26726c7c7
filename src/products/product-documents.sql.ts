import type { Db } from '../db/index.js';
import { currentDocumentSql, type DocumentTable, type StoredDocument, storedDocument } from '../reads/index.js';

/** Stored product documents (migrations/0022; the rules are in src/reads/stored-documents.ts and products.documents.ts). */
export const PRODUCT_DOCUMENTS: DocumentTable = { documents: 'product_documents', records: 'products', key: 'product_id' };

/** The product's stored document, unless the product row has changed since it was written (or it has none). */
export function storedProduct(db: Db, storeId: string, id: string): Promise<StoredDocument | undefined> {
  return storedDocument(db, PRODUCT_DOCUMENTS, storeId, id);
}

/** The current document of the `products` row a list reads, else null (a scalar subquery: currentDocumentSql). */
export const currentProductDocument = () => currentDocumentSql(PRODUCT_DOCUMENTS);
