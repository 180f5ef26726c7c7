-- Each attempt of a webhook delivery, not only the last: the console's delivery page and
-- GET /webhooks/{id}/deliveries/{deliveryId} show when it was sent, how long it took, the status and the first
-- 4 KB of the answer, or the error. Written by the delivery worker in the same statement that records the
-- outcome on the delivery (src/webhooks/worker.sql.ts `recordAttempts`), so the two never disagree. Bounded:
-- that statement keeps a delivery's newest 32 attempts (the default schedule makes 11; /retry adds more), and
-- the rows go with their delivery (purged, or its webhook or store deleted).
CREATE TABLE webhook_delivery_attempts (
  store_id text NOT NULL,
  delivery_id text NOT NULL,
  -- the delivery's attempt number (1 for the first); an attempt cut by a crash has no row
  attempt integer NOT NULL,
  started_at timestamptz(3) NOT NULL,
  duration_ms integer NOT NULL,
  response_status integer,
  response_body text,
  error text,
  PRIMARY KEY (store_id, delivery_id, attempt),
  FOREIGN KEY (store_id, delivery_id) REFERENCES webhook_deliveries (store_id, id) ON DELETE CASCADE
);
