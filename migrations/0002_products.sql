-- Catalog: products, their generated variants and the variants' attribute combinations.
-- Money is NUMERIC (exact). Sorts have (store_id, key, id) indexes; search has trigram indexes.

CREATE TABLE products (
  store_id text NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
  id text NOT NULL,
  title text NOT NULL,
  handle text NOT NULL,
  description text,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
  badge text,
  price numeric CHECK (price >= 0),
  compare_price numeric CHECK (compare_price >= 0),
  total_stock integer CHECK (total_stock >= 0),
  images text[] NOT NULL DEFAULT '{}',
  size_chart text,
  attribute_set_id text,
  options jsonb NOT NULL DEFAULT '[]',
  meta_title text,
  meta_description text,
  meta_keywords text,
  return_config jsonb NOT NULL,
  average_rating numeric NOT NULL DEFAULT 0,
  total_reviews integer NOT NULL DEFAULT 0,
  created_at timestamptz(3) NOT NULL,
  updated_at timestamptz(3) NOT NULL,
  PRIMARY KEY (store_id, id),
  FOREIGN KEY (store_id, attribute_set_id) REFERENCES attribute_sets (store_id, id) ON DELETE SET NULL (attribute_set_id),
  CHECK (compare_price IS NULL OR price IS NULL OR compare_price >= price)
);
CREATE UNIQUE INDEX products_handle_key ON products (store_id, handle);
CREATE INDEX products_created_idx ON products (store_id, created_at, id);
CREATE INDEX products_price_idx ON products (store_id, price, id);
CREATE INDEX products_title_sort_idx ON products (store_id, (lower(title) COLLATE "C"), id);
CREATE INDEX products_status_idx ON products (store_id, status, created_at, id);
CREATE INDEX products_title_trgm ON products USING gin (title gin_trgm_ops);
CREATE INDEX products_handle_trgm ON products USING gin (handle gin_trgm_ops);

CREATE TABLE variants (
  store_id text NOT NULL,
  id text NOT NULL,
  product_id text NOT NULL,
  position integer NOT NULL,
  attributes jsonb NOT NULL,
  price numeric CHECK (price >= 0),
  sale_price numeric CHECK (sale_price >= 0),
  stock integer NOT NULL DEFAULT 0 CHECK (stock >= 0),
  sku text,
  created_at timestamptz(3) NOT NULL,
  updated_at timestamptz(3) NOT NULL,
  PRIMARY KEY (store_id, id),
  FOREIGN KEY (store_id, product_id) REFERENCES products (store_id, id) ON DELETE CASCADE,
  -- sale_price is the variant's compare-at price, held to the product's rule
  CHECK (sale_price IS NULL OR price IS NULL OR sale_price >= price)
);
CREATE INDEX variants_product_idx ON variants (store_id, product_id, position);
CREATE INDEX variants_sku_trgm ON variants USING gin (sku gin_trgm_ops);

-- A variant's attribute combination: the AttributeValues its option values were upserted as.
CREATE TABLE variant_attribute_values (
  store_id text NOT NULL,
  variant_id text NOT NULL,
  attribute_value_id text NOT NULL,
  PRIMARY KEY (store_id, variant_id, attribute_value_id),
  FOREIGN KEY (store_id, variant_id) REFERENCES variants (store_id, id) ON DELETE CASCADE,
  FOREIGN KEY (store_id, attribute_value_id) REFERENCES attribute_values (store_id, id) ON DELETE CASCADE
);
CREATE INDEX variant_attribute_values_value_idx ON variant_attribute_values (store_id, attribute_value_id);
