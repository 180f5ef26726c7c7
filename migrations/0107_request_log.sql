-- The Requests log (CONTRACT §12): one row per API request a credential of the store made, written off the
-- request path in batches by every server process (src/request-log). What a request was, never what it
-- carried: no bodies, no query strings, no credentials (the credential's name only). Bounded per store: the
-- newest 10,000 rows and STOREFRONT_REQUEST_LOG_DAYS days, pruned by the shared purge loop.
-- The primary key is the one index: store_id first (like every store-owned key), then the time and the id
-- that order the log newest first, so a page, the prune's cut-off row and the age bound are each a range of
-- one store's part of it; filters (status class, route, credential) scan at most the 10,000 rows of a store.
CREATE TABLE request_log (
  store_id text NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
  -- when it was answered
  at timestamptz(3) NOT NULL,
  id text NOT NULL,
  method text NOT NULL,
  -- the route's template (/api/v1/products/:id), never the URL a caller sent
  route text NOT NULL,
  status smallint NOT NULL,
  -- the API key's name, or the admin's email for an access token
  credential text NOT NULL,
  request_id text NOT NULL,
  idempotency_key text,
  -- the error envelope's code, when the answer was one
  error_code text,
  duration_ms real NOT NULL,
  PRIMARY KEY (store_id, at, id)
);
