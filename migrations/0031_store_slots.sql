-- Per-store limits that must hold across every server process (at most 2 import uploads and 4 open exports
-- per store at once): a store's work of one kind holds numbered slots, 0 .. limit-1. A slot is taken by an
-- upsert that succeeds only when the slot is free or its lease ran out, renewed while the work goes on and
-- deleted when it ends; a process that dies frees its slots when their leases run out (src/shared/store-slots.ts).
CREATE TABLE store_slots (
  store_id text NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
  kind text NOT NULL,
  slot smallint NOT NULL,
  token text NOT NULL,
  lease_until timestamptz(3) NOT NULL,
  PRIMARY KEY (store_id, kind, slot)
);
