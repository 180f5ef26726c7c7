-- A created product's row is written once (migration 0060 wrote it twice: the INSERT computed the search text
-- before the variants existed, and the variants' INSERT made the product compute it again, a second row
-- version with all thirteen index entries anew, ~40% of a create's database time).
--
-- Now a write that knows its variants' SKUs before they exist (POST /products) supplies the text with the
-- product's INSERT, computed by storefront_product_search_text from the values it inserts; an INSERT
-- without one computes it from the rows as before. What is supplied is checked when the transaction
-- commits (a deferred constraint trigger, per inserted row): a text that is not the function of the
-- product's rows as they are then is computed again. Variants' inserts and deletions now make a product
-- compute its text only where it changes. So at every commit each product's text is still provably the
-- function of its rows, and a create writes one row version.

CREATE OR REPLACE FUNCTION storefront_products_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- an INSERT's supplied text stands until its check at commit (storefront_products_search_text_check)
  IF TG_OP = 'INSERT' AND NEW.search_text IS NOT NULL THEN
    RETURN NEW;
  END IF;
  NEW.search_text := storefront_product_search_text(NEW.title, NEW.handle, NEW.sku,
    (SELECT string_agg(v.sku, E'\n' ORDER BY v.sku) FROM variants v WHERE v.store_id = NEW.store_id AND v.product_id = NEW.id));
  RETURN NEW;
END $$;

-- The product's text as its rows make it now (what the BEFORE trigger computes).
CREATE FUNCTION storefront_product_search_text_of(p products) RETURNS text LANGUAGE sql STABLE
  RETURN storefront_product_search_text(p.title, p.handle, p.sku,
    (SELECT string_agg(v.sku, E'\n' ORDER BY v.sku) FROM variants v WHERE v.store_id = p.store_id AND v.product_id = p.id));

-- At commit, each inserted product: computed again (SET NULL fires the BEFORE trigger) unless it is current.
CREATE FUNCTION storefront_products_search_text_check() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE products p SET search_text = NULL
    WHERE p.store_id = NEW.store_id AND p.id = NEW.id
      AND p.search_text IS DISTINCT FROM storefront_product_search_text_of(p);
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER products_search_text_check AFTER INSERT ON products
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION storefront_products_search_text_check();

CREATE OR REPLACE FUNCTION storefront_variants_inserted_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE products p SET search_text = NULL
    FROM (SELECT DISTINCT store_id, product_id FROM variants_inserted) c
    WHERE p.store_id = c.store_id AND p.id = c.product_id
      AND p.search_text IS DISTINCT FROM storefront_product_search_text_of(p);
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION storefront_variants_deleted_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE products p SET search_text = NULL
    FROM (SELECT DISTINCT store_id, product_id FROM variants_deleted) c
    WHERE p.store_id = c.store_id AND p.id = c.product_id
      AND p.search_text IS DISTINCT FROM storefront_product_search_text_of(p);
  RETURN NULL;
END $$;
