import type { Db, Tx } from '../db/index.js';
import { rebuildDocuments, writeDocuments } from '../reads/index.js';
import { etagOf } from '../shared/index.js';
import { getCustomersByIds } from './customers.service.js';
import { CUSTOMER_DOCUMENTS } from './customers.sql.js';

/**
 * Stored customer documents (migrations/0075; the shared rules: src/reads/stored-documents.ts): each customer
 * as GET returns it, as the JSON text of its customer.created/updated event, written by every write that
 * changes the customer (the write door's event append, an import line's), read by GET /customers while the
 * customer's row is still the version it was written for. A customer's addresses are not part of it.
 */
/**
 * Writes the customers' documents for their rows as they are now. The body is in the response schema's key
 * order (what the list sends byte for byte), not canonical JSON, so the ETag is taken over the value.
 */
export function writeCustomerDocuments(trx: Tx, storeId: string, documents: { id: string; body: string }[], last: boolean): Promise<void> {
  return writeDocuments(trx, CUSTOMER_DOCUMENTS, storeId, documents, { last, etagOfBody: (body) => etagOf(JSON.parse(body)) });
}

/**
 * Writes the stored document of every customer of the store that lacks a current one (written before
 * migration 0075, or past the write door: bulk seeding, a script). Returns how many it wrote.
 */
export function rebuildCustomerDocuments(db: Db, storeId: string, batch = 500): Promise<number> {
  return rebuildDocuments(
    db,
    CUSTOMER_DOCUMENTS,
    storeId,
    async (trx, ids) => {
      const customers = await getCustomersByIds(trx, storeId, ids);
      const documents = customers.map((customer) => ({ id: customer.id, body: JSON.stringify(customer) }));
      await writeCustomerDocuments(trx, storeId, documents, false);
    },
    batch,
  );
}
