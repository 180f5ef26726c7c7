-- Exact list totals without counting (docs/decisions.md, "Exact totals from counters").
--
-- list_counts holds, per store and list, how many rows carry each value of the list's exact-match
-- filters (key1, key2; '' where a list has fewer). Triggers keep it in the writing transaction, so a
-- total read from it is as exact and as transactional as count(*). Each (store, list, key) is spread
-- over 32 shards, chosen by transaction id: transactions in flight together have nearby ids, so up to 32
-- concurrent writers in one store lock different rows (a counter row stays locked until its writer
-- commits); and one transaction always adds to the same row of a key (no lock-order deadlocks between
-- its own statements). A shard's n may go negative (a row counted in one shard, deleted from
-- another); only the sum over the shards means anything.
--
-- Lists and keys:  products (status) · orders (order_status, payment_status) · attribute_sets (status)
--                  · customers, collections, attributes (no key)

CREATE TABLE list_counts (
  store_id text NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
  list text NOT NULL,
  key1 text NOT NULL,
  key2 text NOT NULL,
  shard smallint NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (store_id, list, key1, key2, shard)
);

-- One template, instantiated per counted table (static SQL in each function, so its plans are cached).
-- INSERT and DELETE: statement-level triggers over the transition tables (one upsert per key a statement
-- touched, however many rows: imports and cascades). UPDATE: a row-level trigger that fires only when a
-- key column changes (a transition-table trigger cannot name columns, and would run on every update).
-- DELETE skips stores that no longer exist: deleting a store cascades to its rows and to its counters in
-- an order PostgreSQL chooses, and a counter re-created for a deleted store would fail its foreign key.
DO $install$
DECLARE
  t record;
  -- a key column, or '' where the list has no such key; over the transition table and over OLD/NEW
  k1 text;
  k2 text;
  old1 text;
  old2 text;
  new1 text;
  new2 text;
BEGIN
  FOR t IN
    SELECT * FROM (VALUES
      ('products', 'status', NULL),
      ('orders', 'order_status', 'payment_status'),
      ('attribute_sets', 'status', NULL),
      ('customers', NULL, NULL),
      ('collections', NULL, NULL),
      ('attributes', NULL, NULL)
    ) AS v (tbl, col1, col2)
  LOOP
    k1 := coalesce(quote_ident(t.col1), '''''');
    k2 := coalesce(quote_ident(t.col2), '''''');
    old1 := coalesce('OLD.' || quote_ident(t.col1), '''''');
    old2 := coalesce('OLD.' || quote_ident(t.col2), '''''');
    new1 := coalesce('NEW.' || quote_ident(t.col1), '''''');
    new2 := coalesce('NEW.' || quote_ident(t.col2), '''''');
    EXECUTE format($fn$
      CREATE FUNCTION %1$I() RETURNS trigger LANGUAGE plpgsql AS $body$
      DECLARE
        v_shard smallint := (txid_current() %% 32)::smallint;
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO list_counts AS c (store_id, list, key1, key2, shard, n)
          SELECT r.store_id, %2$L, r.k1, r.k2, v_shard, count(*)
          FROM (SELECT store_id, %3$s AS k1, %4$s AS k2 FROM new_rows) r
          GROUP BY r.store_id, r.k1, r.k2
          ON CONFLICT (store_id, list, key1, key2, shard) DO UPDATE SET n = c.n + excluded.n;
        ELSIF TG_OP = 'DELETE' THEN
          INSERT INTO list_counts AS c (store_id, list, key1, key2, shard, n)
          SELECT r.store_id, %2$L, r.k1, r.k2, v_shard, -count(*)
          FROM (SELECT store_id, %3$s AS k1, %4$s AS k2 FROM old_rows) r
          WHERE EXISTS (SELECT 1 FROM stores s WHERE s.id = r.store_id)
          GROUP BY r.store_id, r.k1, r.k2
          ON CONFLICT (store_id, list, key1, key2, shard) DO UPDATE SET n = c.n + excluded.n;
        ELSE
          INSERT INTO list_counts AS c (store_id, list, key1, key2, shard, n)
          VALUES (OLD.store_id, %2$L, %5$s, %6$s, v_shard, -1),
                 (NEW.store_id, %2$L, %7$s, %8$s, v_shard, 1)
          ON CONFLICT (store_id, list, key1, key2, shard) DO UPDATE SET n = c.n + excluded.n;
        END IF;
        RETURN NULL;
      END
      $body$
    $fn$, 'list_counts_' || t.tbl, t.tbl, k1, k2, old1, old2, new1, new2);

    EXECUTE format('CREATE TRIGGER list_counts_insert AFTER INSERT ON %1$I REFERENCING NEW TABLE AS new_rows
                    FOR EACH STATEMENT EXECUTE FUNCTION %2$I()', t.tbl, 'list_counts_' || t.tbl);
    EXECUTE format('CREATE TRIGGER list_counts_delete AFTER DELETE ON %1$I REFERENCING OLD TABLE AS old_rows
                    FOR EACH STATEMENT EXECUTE FUNCTION %2$I()', t.tbl, 'list_counts_' || t.tbl);

    -- Backfill under the triggers: creating them locked out writers to the table until this commits.
    EXECUTE format('INSERT INTO list_counts (store_id, list, key1, key2, shard, n)
                    SELECT store_id, %2$L, %3$s, %4$s, 0, count(*) FROM %1$I GROUP BY 1, 3, 4',
                   t.tbl, t.tbl, k1, k2);
  END LOOP;
END
$install$;

-- Row-level, and only where a key column can change.
CREATE TRIGGER list_counts_update AFTER UPDATE OF status ON products
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION list_counts_products();
CREATE TRIGGER list_counts_update AFTER UPDATE OF order_status, payment_status ON orders
  FOR EACH ROW WHEN (OLD.order_status IS DISTINCT FROM NEW.order_status OR OLD.payment_status IS DISTINCT FROM NEW.payment_status)
  EXECUTE FUNCTION list_counts_orders();
CREATE TRIGGER list_counts_update AFTER UPDATE OF status ON attribute_sets
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION list_counts_attribute_sets();
