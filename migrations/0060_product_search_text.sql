-- One search text per product: its title, handle, own SKU and every variant's SKU, lower-cased, one per
-- line, under one trigram index. A search (case-insensitive substring on title, handle and SKUs) then reads
-- products only: before, it unioned two product trigram scans with a scan of the variants' SKU index and
-- rechecked up to nine SKUs per product.
--
-- The database keeps the text current, whatever writes the rows (the API, an import batch, the bench's
-- bulk seeder, a script): a products row computes its own on insert and whenever its title, handle or SKU
-- is set, and variants' inserts, deletions and SKU changes make their products compute it again. So it is
-- provably the function below of the rows as they are, and nothing recomputes it per request.
--
-- lower(a || E'\n' || b) = lower(a) || E'\n' || lower(b) (lower() maps character by character), so for a term
-- without a line break, `search_text LIKE lower('%term%')` holds exactly when one of the fields ILIKEs the
-- pattern (ILIKE is lower(field) LIKE lower(pattern)). A term holding a line break is searched over the
-- fields themselves (src/products/products.sql.ts).
--
-- fastupdate = off: with autovacuum off (as in CI) nothing flushed a GIN index's pending list but a write
-- that found it over gin_pending_list_limit (4 MB), and every search scanned that list linearly: the
-- search's rate fell by more than half over 6,600 creates. Without it a write adds its trigrams to the
-- index at once and a search reads only the index.

CREATE FUNCTION storefront_product_search_text(title text, handle text, sku text, variant_skus text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN lower(concat_ws(E'\n', title, handle, sku, variant_skus));

-- BEFORE INSERT, and BEFORE UPDATE of a field it is made of or of itself (so nothing can set it otherwise).
-- The variant SKUs are sorted: the text depends on the set, not on the variants' positions.
CREATE FUNCTION storefront_products_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := storefront_product_search_text(NEW.title, NEW.handle, NEW.sku,
    (SELECT string_agg(v.sku, E'\n' ORDER BY v.sku) FROM variants v WHERE v.store_id = NEW.store_id AND v.product_id = NEW.id));
  RETURN NEW;
END $$;

-- A statement's inserted or deleted variants: their products compute their text again, once per product.
CREATE FUNCTION storefront_variants_inserted_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE products p SET search_text = NULL
    FROM (SELECT DISTINCT store_id, product_id FROM variants_inserted) c
    WHERE p.store_id = c.store_id AND p.id = c.product_id;
  RETURN NULL;
END $$;

CREATE FUNCTION storefront_variants_deleted_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE products p SET search_text = NULL
    FROM (SELECT DISTINCT store_id, product_id FROM variants_deleted) c
    WHERE p.store_id = c.store_id AND p.id = c.product_id;
  RETURN NULL;
END $$;

-- A variant whose SKU changed (row by row: a statement-level UPDATE trigger cannot name its columns, and
-- stock moves update variants on every checkout).
CREATE FUNCTION storefront_variant_sku_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE products SET search_text = NULL WHERE store_id = NEW.store_id AND id = NEW.product_id;
  RETURN NULL;
END $$;

ALTER TABLE products ADD COLUMN search_text text;

CREATE TRIGGER products_search_text BEFORE INSERT OR UPDATE OF title, handle, sku, search_text ON products
  FOR EACH ROW EXECUTE FUNCTION storefront_products_search_text();
CREATE TRIGGER variants_inserted_search_text AFTER INSERT ON variants REFERENCING NEW TABLE AS variants_inserted
  FOR EACH STATEMENT EXECUTE FUNCTION storefront_variants_inserted_search_text();
CREATE TRIGGER variants_deleted_search_text AFTER DELETE ON variants REFERENCING OLD TABLE AS variants_deleted
  FOR EACH STATEMENT EXECUTE FUNCTION storefront_variants_deleted_search_text();
CREATE TRIGGER variants_sku_search_text AFTER UPDATE OF sku ON variants
  FOR EACH ROW WHEN (OLD.sku IS DISTINCT FROM NEW.sku) EXECUTE FUNCTION storefront_variant_sku_search_text();

-- Filling the column writes every product row anew, which would leave every stored document (migration 0022)
-- unused: the text is no part of a product's representation, so a document current before is still the
-- product's, and follows its row's new version.
CREATE TEMPORARY TABLE current_documents ON COMMIT DROP AS
  SELECT d.store_id, d.product_id FROM product_documents d
  JOIN products p ON p.store_id = d.store_id AND p.id = d.product_id AND p.xmin = d.written_by;
UPDATE products SET search_text = NULL;
UPDATE product_documents d SET written_by = p.xmin FROM current_documents c, products p
  WHERE d.store_id = c.store_id AND d.product_id = c.product_id AND p.store_id = c.store_id AND p.id = c.product_id;
ALTER TABLE products ALTER COLUMN search_text SET NOT NULL;

CREATE INDEX products_search_trgm ON products USING gin (store_id, search_text gin_trgm_ops) WITH (fastupdate = off);

-- Only the product search used these (a smart collection's SKU rule reads a product's variants by its
-- own index): every create paid for nine variants' and a product's trigrams that nothing read.
DROP INDEX variants_sku_trgm;
DROP INDEX products_sku_trgm;
