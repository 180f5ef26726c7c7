-- A store's catalog version, for the searches kept in memory (src/reads/search-cache.ts, issue 42): every
-- statement that inserts, updates or deletes products adds the number of rows it changed to the store's
-- `product_changes` counter in list_counts (a count of changes, not of rows; sharded by transaction id as the
-- totals of 0007 are, so concurrent writers of a store mostly add to different rows). Its sum only grows, by at
-- least one with every committed change to a product (through the API or not: a script, a restore, a trigger
-- of variants rewriting search_text), and a later snapshot sees every change an earlier one saw: two reads
-- that find the same sum see the same products.
CREATE FUNCTION product_changes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_shard smallint := (txid_current() % 32)::smallint;
BEGIN
  -- a store being deleted takes its counters with it (its rows cascade in an order PostgreSQL chooses)
  INSERT INTO list_counts AS c (store_id, list, key1, key2, shard, n)
  SELECT r.store_id, 'product_changes', '', '', v_shard, count(*)
  FROM changed_rows r
  WHERE EXISTS (SELECT 1 FROM stores s WHERE s.id = r.store_id)
  GROUP BY r.store_id
  ON CONFLICT (store_id, list, key1, key2, shard) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END
$$;

CREATE TRIGGER product_changes_insert AFTER INSERT ON products REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION product_changes();
CREATE TRIGGER product_changes_update AFTER UPDATE ON products REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION product_changes();
CREATE TRIGGER product_changes_delete AFTER DELETE ON products REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION product_changes();
