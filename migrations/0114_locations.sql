-- Stock at more than one location (CONTRACT §13): a store's locations, and an inventory level per item (a
-- variant, or a simple product: one without options) per location.
--
-- variants.stock and a simple product's products.total_stock stay, as the sum of `available` over the item's
-- ACTIVE locations, so reads (GET product, lists, stored documents) cost what they cost before. The database
-- keeps both directions equal, whatever writes the rows (the API, an import batch, the bench seeder, a
-- checkout), as it keeps products.search_text (migration 0060):
--   - a level's change at an active location sets its item's total (storefront_levels_to_stock);
--   - a total written through the product or variant rows (POST/PATCH, imports) that differs from the sum
--     sets the default location's level, unless the item has stock at another active location: then the
--     write fails with SQLSTATE SF409 (the API's 409 MULTI_LOCATION_STOCK, src/errors.ts), so a total is
--     never split by guessing (storefront_stock_to_default_level).
-- Each side acts only when the two disagree, so one side's write, echoed by the other, stops there.

-- An id in the API's ObjectId layout (8 hex digits of seconds, 16 random ones), for rows the database makes.
CREATE FUNCTION storefront_new_id() RETURNS text LANGUAGE sql VOLATILE
  RETURN lpad(to_hex(floor(extract(epoch FROM clock_timestamp()))::bigint), 8, '0')
    || substr(md5(random()::text || clock_timestamp()::text), 1, 16);

CREATE TABLE locations (
  store_id text NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
  id text NOT NULL,
  name text NOT NULL,
  code text,
  address jsonb,
  active boolean NOT NULL DEFAULT true,
  is_default boolean NOT NULL DEFAULT false,
  created_at timestamptz(3) NOT NULL,
  updated_at timestamptz(3) NOT NULL,
  PRIMARY KEY (store_id, id),
  CONSTRAINT locations_default_active_check CHECK (active OR NOT is_default)
);
CREATE UNIQUE INDEX locations_name_key ON locations (store_id, lower(name));
CREATE UNIQUE INDEX locations_code_key ON locations (store_id, code);
-- One default per store; moving it clears the old one first, in the same transaction.
CREATE UNIQUE INDEX locations_default_key ON locations (store_id) WHERE is_default;
CREATE INDEX locations_created_idx ON locations (store_id, created_at, id);
CREATE INDEX locations_updated_idx ON locations (store_id, updated_at, id);

-- item_id is the variant's id, or the simple product's (ids are unique across both): one key for both kinds,
-- so a simple product's level (variant_id null) is as unique as a variant's. A missing level is 0 available.
-- created_at orders the list (every list offers createdAt); level_id (item and location) breaks its ties.
CREATE TABLE inventory_levels (
  store_id text NOT NULL,
  item_id text NOT NULL,
  location_id text NOT NULL,
  product_id text NOT NULL,
  variant_id text,
  available integer NOT NULL,
  created_at timestamptz(3) NOT NULL,
  updated_at timestamptz(3) NOT NULL,
  level_id text NOT NULL GENERATED ALWAYS AS (item_id || location_id) STORED,
  PRIMARY KEY (store_id, item_id, location_id),
  FOREIGN KEY (store_id, location_id) REFERENCES locations (store_id, id) ON DELETE CASCADE,
  FOREIGN KEY (store_id, product_id) REFERENCES products (store_id, id) ON DELETE CASCADE,
  FOREIGN KEY (store_id, variant_id) REFERENCES variants (store_id, id) ON DELETE CASCADE,
  CONSTRAINT inventory_levels_item_check CHECK (item_id = coalesce(variant_id, product_id))
);
CREATE INDEX inventory_levels_location_idx ON inventory_levels (store_id, location_id, item_id);
CREATE INDEX inventory_levels_product_idx ON inventory_levels (store_id, product_id);
CREATE INDEX inventory_levels_created_idx ON inventory_levels (store_id, created_at, level_id);
CREATE INDEX inventory_levels_updated_idx ON inventory_levels (store_id, updated_at, level_id);

-- Every store that exists keeps its stock at a location named Default; every new store gets one.
INSERT INTO locations (store_id, id, name, is_default, created_at, updated_at)
  SELECT id, storefront_new_id(), 'Default', true, now(), now() FROM stores;

CREATE FUNCTION storefront_default_location() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO locations (store_id, id, name, is_default, created_at, updated_at)
    VALUES (NEW.id, storefront_new_id(), 'Default', true, now(), now());
  RETURN NULL;
END $$;
CREATE TRIGGER stores_default_location AFTER INSERT ON stores FOR EACH ROW EXECUTE FUNCTION storefront_default_location();

-- The stock of every variant and simple product moves to its store's default location (before the triggers
-- exist: the totals already equal these levels).
INSERT INTO inventory_levels (store_id, item_id, location_id, product_id, variant_id, available, created_at, updated_at)
  SELECT v.store_id, v.id, l.id, v.product_id, v.id, v.stock, now(), now()
  FROM variants v JOIN locations l ON l.store_id = v.store_id AND l.is_default
  WHERE v.stock <> 0;
INSERT INTO inventory_levels (store_id, item_id, location_id, product_id, variant_id, available, created_at, updated_at)
  SELECT p.store_id, p.id, l.id, p.id, NULL, p.total_stock, now(), now()
  FROM products p JOIN locations l ON l.store_id = p.store_id AND l.is_default
  WHERE p.options = '[]'::jsonb AND coalesce(p.total_stock, 0) <> 0;

-- A level may go below zero (`adjust` with allowNegative), so may the total that sums it. The API's inputs
-- still take 0 or more.
ALTER TABLE variants DROP CONSTRAINT variants_stock_check;
ALTER TABLE products DROP CONSTRAINT products_total_stock_check;

-- The sum of an item's levels over its store's active locations.
CREATE FUNCTION storefront_active_stock(p_store text, p_item text) RETURNS integer LANGUAGE sql STABLE
  RETURN (SELECT coalesce(sum(l.available), 0)::integer FROM inventory_levels l
    JOIN locations c ON c.store_id = l.store_id AND c.id = l.location_id AND c.active
    WHERE l.store_id = p_store AND l.item_id = p_item);

-- Sets an item's total to the sum of its active levels where it differs (a simple product's null total counts
-- as 0), moving the item's and its product's updatedAt, as any stock change does.
CREATE FUNCTION storefront_sync_item_stock(p_store text, p_product text, p_variant text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  total integer := storefront_active_stock(p_store, coalesce(p_variant, p_product));
  at timestamptz := clock_timestamp();
BEGIN
  IF p_variant IS NOT NULL THEN
    UPDATE variants SET stock = total, updated_at = at
      WHERE store_id = p_store AND id = p_variant AND stock IS DISTINCT FROM total;
    IF FOUND THEN
      UPDATE products SET updated_at = at WHERE store_id = p_store AND id = p_product;
    END IF;
  ELSE
    UPDATE products SET total_stock = total, updated_at = at
      WHERE store_id = p_store AND id = p_product AND coalesce(total_stock, 0) <> total;
  END IF;
END $$;

CREATE FUNCTION storefront_levels_to_stock() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.available = OLD.available THEN RETURN NULL; END IF;
  IF TG_OP = 'INSERT' AND NEW.available = 0 THEN RETURN NULL; END IF;
  IF EXISTS (SELECT 1 FROM locations WHERE store_id = NEW.store_id AND id = NEW.location_id AND active) THEN
    PERFORM storefront_sync_item_stock(NEW.store_id, NEW.product_id, NEW.variant_id);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER inventory_levels_stock AFTER INSERT OR UPDATE OF available ON inventory_levels
  FOR EACH ROW EXECUTE FUNCTION storefront_levels_to_stock();

-- A total written through the item's own row: the default location's level becomes what makes the sum equal
-- it, unless another active location holds stock of the item (SF409, DETAIL the API field written).
CREATE FUNCTION storefront_stock_to_default_level(p_store text, p_product text, p_variant text, p_wanted integer, p_field text)
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
END $$;

-- Only when the written total changed (or a new item has one): an unchanged total already equals the sum.
CREATE FUNCTION storefront_variant_stock_to_level() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM storefront_stock_to_default_level(NEW.store_id, NEW.product_id, NEW.id, NEW.stock, 'stock');
  RETURN NULL;
END $$;
CREATE TRIGGER variants_stock_level_insert AFTER INSERT ON variants
  FOR EACH ROW WHEN (NEW.stock <> 0) EXECUTE FUNCTION storefront_variant_stock_to_level();
CREATE TRIGGER variants_stock_level_update AFTER UPDATE OF stock ON variants
  FOR EACH ROW WHEN (NEW.stock <> OLD.stock) EXECUTE FUNCTION storefront_variant_stock_to_level();

-- A simple product's totalStock; null counts as 0 (and stays null while the sum is 0). A product that loses
-- its options becomes a simple product: its total is then written anew.
CREATE FUNCTION storefront_product_stock_to_level() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM storefront_stock_to_default_level(NEW.store_id, NEW.id, NULL, coalesce(NEW.total_stock, 0), 'totalStock');
  RETURN NULL;
END $$;
CREATE TRIGGER products_stock_level_insert AFTER INSERT ON products
  FOR EACH ROW WHEN (NEW.options = '[]'::jsonb AND coalesce(NEW.total_stock, 0) <> 0)
  EXECUTE FUNCTION storefront_product_stock_to_level();
CREATE TRIGGER products_stock_level_update AFTER UPDATE OF total_stock, options ON products
  FOR EACH ROW WHEN (NEW.options = '[]'::jsonb
    AND (coalesce(NEW.total_stock, 0) <> coalesce(OLD.total_stock, 0) OR OLD.options <> '[]'::jsonb))
  EXECUTE FUNCTION storefront_product_stock_to_level();

-- A simple product that gains options has variants to hold its stock from now on: its own levels go.
CREATE FUNCTION storefront_product_levels_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM inventory_levels WHERE store_id = NEW.store_id AND item_id = NEW.id;
  RETURN NULL;
END $$;
CREATE TRIGGER products_levels_gone AFTER UPDATE OF options ON products
  FOR EACH ROW WHEN (OLD.options = '[]'::jsonb AND NEW.options <> '[]'::jsonb) EXECUTE FUNCTION storefront_product_levels_gone();
