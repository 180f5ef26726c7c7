-- An event's data (the record as GET returns it, ~2.8 KB for a product with 9 variants) is over the size at
-- which PostgreSQL compresses a row, so every append compressed it with pglz. lz4 compresses it to the same
-- size (~0.9 KB) in about half the time (docs/performance.md, "Round 4: the event append"). Only new values
-- are written with it. A build without lz4 (PGlite's) keeps pglz: the statement is skipped there.
DO $$
BEGIN
  ALTER TABLE events ALTER COLUMN data SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END
$$;
