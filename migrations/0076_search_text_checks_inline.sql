-- The search text's checks (migration 0061) compute the text in their own statements instead of calling
-- storefront_product_search_text_of(p). That function holds a subquery, so PostgreSQL cannot inline it: each
-- call ran through the SQL-function executor, which plans its query again on every call, and a create
-- product's two checks (the variants' INSERT and the commit's) spent 11% of the database's CPU there
-- (perf, create product at 10,000 products). Written out in the trigger functions' statements, the expression
-- is planned once per session with them (PL/pgSQL caches its plans). What is computed is unchanged:
-- storefront_product_search_text of the title, handle, SKU and the variants' SKUs sorted, as before.

CREATE OR REPLACE FUNCTION storefront_products_search_text_check() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE products p SET search_text = NULL
    WHERE p.store_id = NEW.store_id AND p.id = NEW.id
      AND p.search_text IS DISTINCT FROM storefront_product_search_text(p.title, p.handle, p.sku,
        (SELECT string_agg(v.sku, E'\n' ORDER BY v.sku) FROM variants v WHERE v.store_id = p.store_id AND v.product_id = p.id));
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION storefront_variants_inserted_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE products p SET search_text = NULL
    FROM (SELECT DISTINCT store_id, product_id FROM variants_inserted) c
    WHERE p.store_id = c.store_id AND p.id = c.product_id
      AND p.search_text IS DISTINCT FROM storefront_product_search_text(p.title, p.handle, p.sku,
        (SELECT string_agg(v.sku, E'\n' ORDER BY v.sku) FROM variants v WHERE v.store_id = p.store_id AND v.product_id = p.id));
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION storefront_variants_deleted_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE products p SET search_text = NULL
    FROM (SELECT DISTINCT store_id, product_id FROM variants_deleted) c
    WHERE p.store_id = c.store_id AND p.id = c.product_id
      AND p.search_text IS DISTINCT FROM storefront_product_search_text(p.title, p.handle, p.sku,
        (SELECT string_agg(v.sku, E'\n' ORDER BY v.sku) FROM variants v WHERE v.store_id = p.store_id AND v.product_id = p.id));
  RETURN NULL;
END $$;
