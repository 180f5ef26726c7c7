-- A product as GET returns it, stored as its canonical JSON with its ETag by the write that last changed it
-- (the text its product.created/updated event carries), so GET /products/{id} sends it without rebuilding it:
-- no variant aggregation in PostgreSQL, no mapping, serialization or hashing in the server
-- (docs/performance.md, "Round 5: stored product documents").
-- `written_by` is the xmin of the product row the document was written for. Every change to a product's
-- representation writes its row (its updatedAt moves), so the document is the product's exactly while the
-- row's xmin is still that one; a change made past the write door (a script, a restore) leaves an older
-- document that no read uses, and GET then builds the product as before.
CREATE TABLE product_documents (
  store_id text NOT NULL,
  product_id text NOT NULL,
  written_by xid NOT NULL,
  etag text NOT NULL,
  body text NOT NULL,
  PRIMARY KEY (store_id, product_id),
  FOREIGN KEY (store_id, product_id) REFERENCES products (store_id, id) ON DELETE CASCADE
);

-- Read only by key: a small ANALYZE sample (see 0021), whose rows carry whole products.
ALTER TABLE product_documents
  ALTER COLUMN store_id SET STATISTICS 10,
  ALTER COLUMN product_id SET STATISTICS 10,
  ALTER COLUMN written_by SET STATISTICS 10,
  ALTER COLUMN etag SET STATISTICS 10,
  ALTER COLUMN body SET STATISTICS 10;

-- As events.data (0019): lz4 where the build has it.
DO $$
BEGIN
  ALTER TABLE product_documents ALTER COLUMN body SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END
$$;
