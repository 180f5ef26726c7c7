-- The event feed: one row per committed change, written in the change's own transaction (docs/events.md).
-- A reader returns only events of transactions older than every transaction still running (its snapshot's
-- xmin), ordered by (xid, seq): the writing transaction's id and the order within it. So a transaction that
-- commits after a reader's page can never land behind that page's cursor.
CREATE TABLE events (
  store_id text NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
  -- the writing transaction (top level, 64-bit: never wraps around)
  xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  -- the order of the events within their transaction
  seq bigint GENERATED ALWAYS AS IDENTITY,
  id text NOT NULL,
  type text NOT NULL,
  -- the record as GET returns it (json, not jsonb: kept as written, nothing to index inside it)
  data json NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (store_id, xid, seq)
);
-- after=<event id> resolves an id to its position.
CREATE UNIQUE INDEX events_store_id_idx ON events (store_id, id);
-- The retention purge looks across stores for old events (the one query here without store_id).
CREATE INDEX events_created_idx ON events (created_at);
