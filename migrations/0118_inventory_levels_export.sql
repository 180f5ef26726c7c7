-- GET /exports/inventory walks a store's levels by (store_id, level_id) as every export walks its table by
-- (store_id, id): each chunk costs the same at any depth (src/exports/exports.sql.ts).
CREATE INDEX inventory_levels_level_idx ON inventory_levels (store_id, level_id);
