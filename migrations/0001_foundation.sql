-- Foundation: stores, their admins and API keys, attribute sets, attributes and their values.
-- Every store-owned table leads its primary and unique keys with store_id.
-- Text sorts use COLLATE "C" on lower(...) so both engines order the same way.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE stores (
  id text PRIMARY KEY,
  slug text NOT NULL,
  name text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX stores_slug_key ON stores (slug);

CREATE TABLE admins (
  store_id text NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
  id text NOT NULL,
  email text NOT NULL,
  password_hash text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (store_id, id)
);
CREATE UNIQUE INDEX admins_email_key ON admins (store_id, lower(email));

CREATE TABLE api_keys (
  store_id text NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
  id text NOT NULL,
  name text NOT NULL,
  key_hash text NOT NULL,
  key_prefix text NOT NULL,
  scopes text[] NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  revoked_at timestamptz(3),
  PRIMARY KEY (store_id, id)
);
-- Looked up by hash before the store is known; the hash of a 190-bit random key is unique anyway.
CREATE UNIQUE INDEX api_keys_key_hash_key ON api_keys (key_hash);
CREATE INDEX api_keys_created_idx ON api_keys (store_id, created_at, id);

CREATE TABLE attribute_sets (
  store_id text NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
  id text NOT NULL,
  name text NOT NULL,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
  created_at timestamptz(3) NOT NULL,
  updated_at timestamptz(3) NOT NULL,
  PRIMARY KEY (store_id, id)
);
CREATE UNIQUE INDEX attribute_sets_name_key ON attribute_sets (store_id, lower(name));
CREATE INDEX attribute_sets_created_idx ON attribute_sets (store_id, created_at, id);
CREATE INDEX attribute_sets_name_sort_idx ON attribute_sets (store_id, (lower(name) COLLATE "C"), id);
CREATE INDEX attribute_sets_status_idx ON attribute_sets (store_id, status, created_at, id);
CREATE INDEX attribute_sets_name_trgm ON attribute_sets USING gin (name gin_trgm_ops);

CREATE TABLE attributes (
  store_id text NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
  id text NOT NULL,
  name text NOT NULL,
  attribute_set_id text,
  created_at timestamptz(3) NOT NULL,
  updated_at timestamptz(3) NOT NULL,
  PRIMARY KEY (store_id, id),
  FOREIGN KEY (store_id, attribute_set_id) REFERENCES attribute_sets (store_id, id) ON DELETE SET NULL (attribute_set_id)
);
CREATE UNIQUE INDEX attributes_name_key ON attributes (store_id, lower(name));
CREATE INDEX attributes_created_idx ON attributes (store_id, created_at, id);
CREATE INDEX attributes_name_sort_idx ON attributes (store_id, (lower(name) COLLATE "C"), id);
CREATE INDEX attributes_set_idx ON attributes (store_id, attribute_set_id);
CREATE INDEX attributes_name_trgm ON attributes USING gin (name gin_trgm_ops);

-- position is the value's place in Attribute.values; a value dropped from the list keeps its row
-- (variants may link to it) with position NULL and status 'inactive'.
CREATE TABLE attribute_values (
  store_id text NOT NULL,
  id text NOT NULL,
  attribute_id text NOT NULL,
  name text NOT NULL,
  value text NOT NULL,
  hex text,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
  position integer,
  created_at timestamptz(3) NOT NULL,
  PRIMARY KEY (store_id, id),
  FOREIGN KEY (store_id, attribute_id) REFERENCES attributes (store_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX attribute_values_name_key ON attribute_values (store_id, attribute_id, name);
