-- The fields a store moved in from another platform carries (docs/products.md, "Catalog fields"):
-- vendor, product type and tags of a product; a simple product's own SKU, barcode and weight (a product
-- without options has no variant to hold them, and its stock is total_stock); a variant's barcode, weight
-- and image; and custom fields (what has no field of its own: metafields, Google Shopping columns, image
-- alt texts) on products, variants, collections, customers and orders.
-- New columns are nullable or have constant defaults: adding them rewrites no table.

ALTER TABLE products
  ADD COLUMN vendor text,
  ADD COLUMN product_type text,
  ADD COLUMN tags text[] NOT NULL DEFAULT '{}',
  ADD COLUMN sku text,
  ADD COLUMN barcode text,
  ADD COLUMN weight_grams numeric CHECK (weight_grams >= 0),
  ADD COLUMN custom_fields jsonb NOT NULL DEFAULT '{}';

ALTER TABLE variants
  ADD COLUMN barcode text,
  ADD COLUMN weight_grams numeric CHECK (weight_grams >= 0),
  ADD COLUMN image text,
  ADD COLUMN custom_fields jsonb NOT NULL DEFAULT '{}';

ALTER TABLE collections ADD COLUMN custom_fields jsonb NOT NULL DEFAULT '{}';
ALTER TABLE customers ADD COLUMN custom_fields jsonb NOT NULL DEFAULT '{}';
ALTER TABLE orders ADD COLUMN custom_fields jsonb NOT NULL DEFAULT '{}';

-- A customer imported without a password has none until PATCH sets one (and cannot sign in until then).
ALTER TABLE customers ALTER COLUMN password_hash DROP NOT NULL;

-- The product list's filters `vendor` and `productType` compare case-insensitively.
CREATE INDEX products_vendor_idx ON products (store_id, lower(vendor));
CREATE INDEX products_product_type_idx ON products (store_id, lower(product_type));

-- `tag` matches case-insensitively (a product's tags are unique that way): the tags lowercased, as one
-- immutable expression that the filter and the index share.
CREATE FUNCTION storefront_lower_tags(tags text[]) RETURNS text[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT ARRAY(SELECT lower(tag) FROM unnest(tags) AS tag) $$;
CREATE INDEX products_tags_idx ON products USING gin (store_id, storefront_lower_tags(tags));

-- A simple product's SKU is found by the product search like a variant's (0006: scoped to the store).
CREATE INDEX products_sku_trgm ON products USING gin (store_id, sku gin_trgm_ops);
