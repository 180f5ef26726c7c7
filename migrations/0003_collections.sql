-- Collections: manual membership (one relation, seen from both sides), smart rules, hierarchy.

CREATE TABLE collections (
  store_id text NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
  id text NOT NULL,
  title text NOT NULL,
  handle text NOT NULL,
  description text,
  image text,
  collection_type text NOT NULL DEFAULT 'manual' CHECK (collection_type IN ('manual', 'smart')),
  parent_id text,
  match_type text CHECK (match_type IN ('all condition', 'any condition')),
  conditions jsonb NOT NULL DEFAULT '[]',
  meta_title text,
  meta_description text,
  meta_keywords text,
  created_at timestamptz(3) NOT NULL,
  updated_at timestamptz(3) NOT NULL,
  PRIMARY KEY (store_id, id),
  FOREIGN KEY (store_id, parent_id) REFERENCES collections (store_id, id) ON DELETE SET NULL (parent_id)
);
CREATE UNIQUE INDEX collections_handle_key ON collections (store_id, handle);
CREATE INDEX collections_created_idx ON collections (store_id, created_at, id);
CREATE INDEX collections_title_sort_idx ON collections (store_id, (lower(title) COLLATE "C"), id);
CREATE INDEX collections_parent_idx ON collections (store_id, parent_id);
CREATE INDEX collections_title_trgm ON collections USING gin (title gin_trgm_ops);
CREATE INDEX collections_handle_trgm ON collections USING gin (handle gin_trgm_ops);

-- Manual membership: Product.selectedCollection and Collection.selectedProducts are this one table.
CREATE TABLE product_collections (
  store_id text NOT NULL,
  collection_id text NOT NULL,
  product_id text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (store_id, collection_id, product_id),
  FOREIGN KEY (store_id, collection_id) REFERENCES collections (store_id, id) ON DELETE CASCADE,
  FOREIGN KEY (store_id, product_id) REFERENCES products (store_id, id) ON DELETE CASCADE
);
CREATE INDEX product_collections_product_idx ON product_collections (store_id, product_id);
