-- Generated handles read the store's handles that could collide with a title's slug: `base` and
-- `base-%` (src/shared/slug.ts). With the default operator class a btree cannot serve a LIKE prefix
-- under a non-C collation, so the prefix went through the trigram index (2–5 ms per create at 100k
-- products, growing with the catalog). The unique indexes are rebuilt with text_pattern_ops, which
-- serves equality and ON CONFLICT (store_id, handle) as before and makes the prefix a range scan.
-- Handles are [a-z0-9-], so nothing sorts by them.
DROP INDEX products_handle_key;
CREATE UNIQUE INDEX products_handle_key ON products (store_id, handle text_pattern_ops);
DROP INDEX collections_handle_key;
CREATE UNIQUE INDEX collections_handle_key ON collections (store_id, handle text_pattern_ops);
