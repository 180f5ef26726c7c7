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
  -- Rules of smart collections; a manual collection has match_type NULL and conditions '[]'.
  -- conditions: [{field, operator, value}], compiled to SQL at read time (src/collections/rules.ts).
  match_type text CHECK (match_type IN ('all condition', 'any condition')),
  conditions jsonb NOT NULL DEFAULT '[]',
  meta_title text,
  meta_description text,
  meta_keywords text,
  created_at timestamptz(3) NOT NULL,
  updated_at timestamptz(3) NOT NULL,
  PRIMARY KEY (store_id, id),
  -- Deleting a parent detaches its children; longer cycles are refused by the service.
  FOREIGN KEY (store_id, parent_id) REFERENCES collections (store_id, id) ON DELETE SET NULL (parent_id),
  CHECK (parent_id IS NULL OR parent_id <> id),
  CHECK (collection_type = 'smart' OR (match_type IS NULL AND conditions = '[]'::jsonb))
);
CREATE UNIQUE INDEX collections_handle_key ON collections (store_id, handle);
CREATE INDEX collections_created_idx ON collections (store_id, created_at, id);
CREATE INDEX collections_title_sort_idx ON collections (store_id, (lower(title) COLLATE "C"), id);
CREATE INDEX collections_parent_idx ON collections (store_id, parent_id, created_at, id);
CREATE INDEX collections_title_trgm ON collections USING gin (title gin_trgm_ops);
CREATE INDEX collections_handle_trgm ON collections USING gin (handle gin_trgm_ops);

-- Manual membership: Product.selectedCollection and Collection.selectedProducts are this one table.
-- Each side keeps its own order: collection_position is the place in the collection's
-- selectedProducts, product_position the place in the product's selectedCollection. A row added
-- from one side goes to the end of the other side's list.
CREATE TABLE product_collections (
  store_id text NOT NULL,
  collection_id text NOT NULL,
  product_id text NOT NULL,
  collection_position integer NOT NULL,
  product_position integer NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (store_id, collection_id, product_id),
  FOREIGN KEY (store_id, collection_id) REFERENCES collections (store_id, id) ON DELETE CASCADE,
  FOREIGN KEY (store_id, product_id) REFERENCES products (store_id, id) ON DELETE CASCADE
);
CREATE INDEX product_collections_collection_idx ON product_collections (store_id, collection_id, collection_position);
CREATE INDEX product_collections_product_idx ON product_collections (store_id, product_id, product_position);
