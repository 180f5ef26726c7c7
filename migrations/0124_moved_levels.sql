-- The levels the database itself moves tell the app, so that each gets its inventory.updated event (CONTRACT
-- §13: every level a write changes). Only one function of migration 0114 moves a level without the app
-- naming it: a total written through a product or variant row (POST/PATCH products, PATCH variants, product
-- imports) sets the default location's level (storefront_stock_to_default_level). It now also appends that
-- level's key (item id, '/', location id, ',') to a transaction-local setting, storefront.moved_levels, which
-- the write reads and clears at its end (storefront_take_moved_levels; src/locations/moved-levels.ts).
-- A transaction-local setting, not a table: it costs no row, ends with the transaction, and a rollback to a
-- savepoint (an import line refused) takes back what was appended after it, as it takes back the level.

CREATE OR REPLACE FUNCTION storefront_stock_to_default_level(p_store text, p_product text, p_variant text, p_wanted integer, p_field text)
  RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  item text := coalesce(p_variant, p_product);
  home text;
BEGIN
  IF storefront_active_stock(p_store, item) = p_wanted THEN RETURN; END IF;
  SELECT id INTO home FROM locations WHERE store_id = p_store AND is_default;
  IF EXISTS (SELECT 1 FROM inventory_levels l JOIN locations c ON c.store_id = l.store_id AND c.id = l.location_id AND c.active
      WHERE l.store_id = p_store AND l.item_id = item AND l.location_id <> home AND l.available <> 0) THEN
    RAISE EXCEPTION 'the item has stock at more than one location' USING ERRCODE = 'SF409', DETAIL = p_field;
  END IF;
  INSERT INTO inventory_levels AS l (store_id, item_id, location_id, product_id, variant_id, available, created_at, updated_at)
    VALUES (p_store, item, home, p_product, p_variant, p_wanted, clock_timestamp(), clock_timestamp())
    ON CONFLICT (store_id, item_id, location_id) DO UPDATE SET available = EXCLUDED.available, updated_at = EXCLUDED.updated_at;
  PERFORM set_config('storefront.moved_levels',
    coalesce(current_setting('storefront.moved_levels', true), '') || item || '/' || home || ',', true);
END $$;

-- The levels moved so far in this transaction (each once), as (item_id, location_id); the record is cleared.
CREATE FUNCTION storefront_take_moved_levels() RETURNS TABLE (item_id text, location_id text) LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  moved text := coalesce(current_setting('storefront.moved_levels', true), '');
BEGIN
  IF moved = '' THEN RETURN; END IF;
  PERFORM set_config('storefront.moved_levels', '', true);
  RETURN QUERY SELECT DISTINCT split_part(k, '/', 1), split_part(k, '/', 2)
    FROM unnest(string_to_array(rtrim(moved, ','), ',')) AS k;
END $$;
