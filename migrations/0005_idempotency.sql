-- Idempotency keys (safe retries): the recorded outcome of the first request that used a key.
-- A key belongs to a store, so store_id leads the primary key. A row is written in the same transaction
-- as the write it describes (both or neither after a crash); concurrent requests with one key take turns
-- on a transaction-scoped advisory lock, not on this table.

CREATE TABLE idempotency_keys (
  store_id text NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
  key text NOT NULL,
  -- sha256 of method, path with query string and body: a different request with the key is refused
  fingerprint text NOT NULL,
  request_method text NOT NULL,
  request_path text NOT NULL,
  status smallint NOT NULL,
  -- the response body exactly as it was sent, replayed byte for byte
  body text NOT NULL,
  etag text,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  expires_at timestamptz(3) NOT NULL,
  PRIMARY KEY (store_id, key)
);
-- The background purge looks across stores for expired keys (the one query here without store_id).
CREATE INDEX idempotency_keys_expires_idx ON idempotency_keys (expires_at);
