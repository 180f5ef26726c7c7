-- Incremental sync (updatedSince, the updatedAt sorts, keyset cursors): each listed table gets an index
-- in (updated_at, id) order within its store — or within the parent of a nested list — so a filter
-- `updated_at >= $since` and a walk in updatedAt order are index range scans, at any depth.
-- Plain CREATE INDEX (the migration runs in one transaction): the tables are locked against writes while
-- each index is built, which takes seconds even for 100,000-row stores.
CREATE INDEX products_updated_idx ON products (store_id, updated_at, id);
CREATE INDEX variants_updated_idx ON variants (store_id, product_id, updated_at, id);
CREATE INDEX collections_updated_idx ON collections (store_id, updated_at, id);
CREATE INDEX attributes_updated_idx ON attributes (store_id, updated_at, id);
CREATE INDEX attribute_sets_updated_idx ON attribute_sets (store_id, updated_at, id);
CREATE INDEX customers_updated_idx ON customers (store_id, updated_at, id);
CREATE INDEX orders_updated_idx ON orders (store_id, updated_at, id);
CREATE INDEX webhooks_updated_idx ON webhooks (store_id, updated_at, id);
CREATE INDEX webhook_deliveries_updated_idx ON webhook_deliveries (store_id, webhook_id, updated_at, id);
