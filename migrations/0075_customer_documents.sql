-- A customer as GET returns it, stored as the JSON text its customer.created/updated event carries, with its
-- ETag, by the write that last changed it: GET /customers sends a page of them without parsing, mapping or
-- serializing its rows (docs/performance.md, "Where the remaining time goes"). The same rules as
-- product_documents (0022; src/shared/stored-documents.ts): `written_by` is the xmin of the customer row the
-- document was written for, so a change made past the write door leaves a document no read uses.
CREATE TABLE customer_documents (
  store_id text NOT NULL,
  customer_id text NOT NULL,
  written_by xid NOT NULL,
  etag text NOT NULL,
  body text NOT NULL,
  PRIMARY KEY (store_id, customer_id),
  FOREIGN KEY (store_id, customer_id) REFERENCES customers (store_id, id) ON DELETE CASCADE
);

-- Read only by key: a small ANALYZE sample (see 0021).
ALTER TABLE customer_documents
  ALTER COLUMN store_id SET STATISTICS 10,
  ALTER COLUMN customer_id SET STATISTICS 10,
  ALTER COLUMN written_by SET STATISTICS 10,
  ALTER COLUMN etag SET STATISTICS 10,
  ALTER COLUMN body SET STATISTICS 10;
