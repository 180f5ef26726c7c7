-- Customers, their addresses, and orders.
-- Every store-owned table leads its primary and unique keys with store_id. Money is NUMERIC (exact).
-- Sorts and filters have (store_id, key, id) indexes; search columns have trigram indexes.

CREATE TABLE customers (
  store_id text NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
  id text NOT NULL,
  user_name text NOT NULL,
  email text,
  password_hash text NOT NULL,
  first_name text,
  last_name text,
  business_name text,
  phone_number text,
  role text NOT NULL DEFAULT 'user',
  created_at timestamptz(3) NOT NULL,
  updated_at timestamptz(3) NOT NULL,
  PRIMARY KEY (store_id, id)
);
-- Case-insensitive uniqueness per store; several customers may have no email (NULLs are distinct).
CREATE UNIQUE INDEX customers_user_name_key ON customers (store_id, lower(user_name));
CREATE UNIQUE INDEX customers_email_key ON customers (store_id, lower(email));
CREATE INDEX customers_created_idx ON customers (store_id, created_at, id);
CREATE INDEX customers_user_name_trgm ON customers USING gin (user_name gin_trgm_ops);
CREATE INDEX customers_email_trgm ON customers USING gin (email gin_trgm_ops);
CREATE INDEX customers_first_name_trgm ON customers USING gin (first_name gin_trgm_ops);
CREATE INDEX customers_last_name_trgm ON customers USING gin (last_name gin_trgm_ops);
CREATE INDEX customers_phone_number_trgm ON customers USING gin (phone_number gin_trgm_ops);
CREATE INDEX customers_business_name_trgm ON customers USING gin (business_name gin_trgm_ops);

CREATE TABLE addresses (
  store_id text NOT NULL,
  id text NOT NULL,
  customer_id text NOT NULL,
  name text,
  email text,
  house text,
  street text,
  landmark text,
  city text,
  state_name text,
  country_name text,
  pincode text,
  phone text,
  address_type text NOT NULL DEFAULT 'Home' CHECK (address_type IN ('Home', 'Work', 'Other')),
  is_default boolean NOT NULL DEFAULT false,
  created_at timestamptz(3) NOT NULL,
  updated_at timestamptz(3) NOT NULL,
  PRIMARY KEY (store_id, id),
  FOREIGN KEY (store_id, customer_id) REFERENCES customers (store_id, id) ON DELETE CASCADE
);
-- At most one default address per customer, whatever the interleaving of requests: the service also
-- locks the customer row, this index is the last word.
CREATE UNIQUE INDEX addresses_default_key ON addresses (store_id, customer_id) WHERE is_default;
CREATE INDEX addresses_customer_idx ON addresses (store_id, customer_id, created_at, id);

CREATE TABLE orders (
  store_id text NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
  id text NOT NULL,
  custom_order_id text NOT NULL,
  user_id text,
  -- cartItems, addresses, trackingInfo and refund are snapshots read and written whole; jsonb keeps
  -- numbers as exact numerics.
  cart_items jsonb NOT NULL,
  shipping_address jsonb,
  billing_address jsonb,
  contact_email text,
  order_status text NOT NULL DEFAULT 'pending',
  payment_method text,
  payment_status text NOT NULL DEFAULT 'pending',
  sub_total numeric NOT NULL CHECK (sub_total >= 0),
  shipping_charge numeric CHECK (shipping_charge >= 0),
  tax_amount numeric CHECK (tax_amount >= 0),
  total_amount numeric NOT NULL CHECK (total_amount >= 0),
  currency text NOT NULL DEFAULT 'USD' CHECK (currency ~ '^[A-Z]{3}$'),
  tracking_info jsonb NOT NULL DEFAULT '[]',
  refund jsonb,
  -- The address names are searched: plain columns so trigram indexes serve the search.
  shipping_first_name text GENERATED ALWAYS AS (shipping_address ->> 'firstName') STORED,
  shipping_last_name text GENERATED ALWAYS AS (shipping_address ->> 'lastName') STORED,
  billing_first_name text GENERATED ALWAYS AS (billing_address ->> 'firstName') STORED,
  billing_last_name text GENERATED ALWAYS AS (billing_address ->> 'lastName') STORED,
  created_at timestamptz(3) NOT NULL,
  updated_at timestamptz(3) NOT NULL,
  PRIMARY KEY (store_id, id),
  FOREIGN KEY (store_id, user_id) REFERENCES customers (store_id, id) ON DELETE SET NULL (user_id)
);
-- Order numbers are unique per store case-insensitively, so `ord-1` and `ORD-1` never both exist.
CREATE UNIQUE INDEX orders_custom_order_id_key ON orders (store_id, lower(custom_order_id));
CREATE INDEX orders_created_idx ON orders (store_id, created_at, id);
CREATE INDEX orders_total_idx ON orders (store_id, total_amount, id);
CREATE INDEX orders_status_idx ON orders (store_id, order_status, created_at, id);
CREATE INDEX orders_payment_status_idx ON orders (store_id, payment_status, created_at, id);
CREATE INDEX orders_user_idx ON orders (store_id, user_id, created_at, id);
CREATE INDEX orders_custom_order_id_trgm ON orders USING gin (custom_order_id gin_trgm_ops);
CREATE INDEX orders_contact_email_trgm ON orders USING gin (contact_email gin_trgm_ops);
CREATE INDEX orders_shipping_first_name_trgm ON orders USING gin (shipping_first_name gin_trgm_ops);
CREATE INDEX orders_shipping_last_name_trgm ON orders USING gin (shipping_last_name gin_trgm_ops);
CREATE INDEX orders_billing_first_name_trgm ON orders USING gin (billing_first_name gin_trgm_ops);
CREATE INDEX orders_billing_last_name_trgm ON orders USING gin (billing_last_name gin_trgm_ops);
