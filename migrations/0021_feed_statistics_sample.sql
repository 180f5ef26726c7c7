-- ANALYZE reads a sample of 300 × (the largest statistics target of a table's columns) rows and holds
-- them whole in memory while it works: 30,000 rows at the default target of 100. An event row carries the
-- record it is about (~0.9 KB compressed) and a delivery its payload (~3 KB), so analyzing either held
-- 30–90 MB. On PGlite that memory is the engine's WASM heap, which never shrinks: it was most of the
-- server's RSS growth during a large import (docs/performance.md, "Round 4: PGlite's import memory").
-- These tables are only ever read by their keys (store, position, id; due time), where statistics from
-- 3,000 rows plan as well as from 30,000.
ALTER TABLE events
  ALTER COLUMN store_id SET STATISTICS 10,
  ALTER COLUMN xid SET STATISTICS 10,
  ALTER COLUMN seq SET STATISTICS 10,
  ALTER COLUMN id SET STATISTICS 10,
  ALTER COLUMN type SET STATISTICS 10,
  ALTER COLUMN data SET STATISTICS 10,
  ALTER COLUMN created_at SET STATISTICS 10;

ALTER TABLE webhook_deliveries
  ALTER COLUMN store_id SET STATISTICS 10,
  ALTER COLUMN id SET STATISTICS 10,
  ALTER COLUMN webhook_id SET STATISTICS 10,
  ALTER COLUMN event_id SET STATISTICS 10,
  ALTER COLUMN type SET STATISTICS 10,
  ALTER COLUMN payload SET STATISTICS 10,
  ALTER COLUMN status SET STATISTICS 10,
  ALTER COLUMN attempts SET STATISTICS 10,
  ALTER COLUMN last_response_status SET STATISTICS 10,
  ALTER COLUMN last_response_body SET STATISTICS 10,
  ALTER COLUMN last_error SET STATISTICS 10,
  ALTER COLUMN next_attempt_at SET STATISTICS 10,
  ALTER COLUMN created_at SET STATISTICS 10,
  ALTER COLUMN updated_at SET STATISTICS 10;
