-- Price lists (CONTRACT §14): prices in a currency, for some buyers (customerTags), for a time (startsAt,
-- endsAt), either fixed per item (price_list_prices) or the base price adjusted by a percentage (only in the
-- store's currency, checked by the service: a store's currency can change). The resolution rule is
-- src/price-lists/resolve.ts; money is NUMERIC here and decimal strings in between, never a binary float.
CREATE TABLE price_lists (
  store_id text NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
  id text NOT NULL,
  name text NOT NULL,
  currency text NOT NULL CONSTRAINT price_lists_currency_check CHECK (currency ~ '^[A-Z]{3}$'),
  status text NOT NULL DEFAULT 'active' CONSTRAINT price_lists_status_check CHECK (status IN ('active', 'draft')),
  starts_at timestamptz(3),
  ends_at timestamptz(3),
  customer_tags text[] NOT NULL DEFAULT '{}',
  adjustment_type text CONSTRAINT price_lists_adjustment_type_check
    CHECK (adjustment_type IN ('percentageDecrease', 'percentageIncrease')),
  adjustment_value numeric CONSTRAINT price_lists_adjustment_value_check CHECK (adjustment_value BETWEEN 0 AND 100),
  created_at timestamptz(3) NOT NULL,
  updated_at timestamptz(3) NOT NULL,
  PRIMARY KEY (store_id, id),
  CONSTRAINT price_lists_window_check CHECK (ends_at > starts_at),
  CONSTRAINT price_lists_adjustment_check CHECK ((adjustment_type IS NULL) = (adjustment_value IS NULL))
);
CREATE UNIQUE INDEX price_lists_name_key ON price_lists (store_id, lower(name));
CREATE INDEX price_lists_created_idx ON price_lists (store_id, created_at, id);
CREATE INDEX price_lists_updated_idx ON price_lists (store_id, updated_at, id);
-- The resolver reads a store's lists of one currency.
CREATE INDEX price_lists_currency_idx ON price_lists (store_id, currency);

-- A fixed price of one item (a variant, or a simple product: item_id as in inventory_levels, 0114) in a list.
CREATE TABLE price_list_prices (
  store_id text NOT NULL,
  price_list_id text NOT NULL,
  item_id text NOT NULL,
  product_id text NOT NULL,
  variant_id text,
  price numeric NOT NULL CONSTRAINT price_list_prices_price_check CHECK (price >= 0),
  compare_price numeric,
  created_at timestamptz(3) NOT NULL,
  updated_at timestamptz(3) NOT NULL,
  PRIMARY KEY (store_id, price_list_id, item_id),
  FOREIGN KEY (store_id, price_list_id) REFERENCES price_lists (store_id, id) ON DELETE CASCADE,
  FOREIGN KEY (store_id, product_id) REFERENCES products (store_id, id) ON DELETE CASCADE,
  FOREIGN KEY (store_id, variant_id) REFERENCES variants (store_id, id) ON DELETE CASCADE,
  CONSTRAINT price_list_prices_item_check CHECK (item_id = coalesce(variant_id, product_id)),
  CONSTRAINT price_list_prices_compare_check CHECK (compare_price >= price)
);
-- GET /price-lists/{id}/prices pages by (created_at, item_id) or (updated_at, item_id) within one list.
CREATE INDEX price_list_prices_created_idx ON price_list_prices (store_id, price_list_id, created_at, item_id);
CREATE INDEX price_list_prices_updated_idx ON price_list_prices (store_id, price_list_id, updated_at, item_id);
-- The resolver reads the fixed prices of some products across the lists.
CREATE INDEX price_list_prices_product_idx ON price_list_prices (store_id, product_id);
