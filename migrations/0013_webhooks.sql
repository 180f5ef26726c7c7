-- Webhooks: a store's subscriptions to its event feed, and one delivery row per (event, subscription).
-- Deliveries live here, not in memory, so they survive restarts and kill -9; every server process runs a
-- delivery worker, and a claim (FOR UPDATE SKIP LOCKED, then a lease in next_attempt_at) keeps one attempt
-- from being sent by two processes (src/webhooks/README.md).
CREATE TABLE webhooks (
  store_id text NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
  id text NOT NULL,
  url text NOT NULL,
  -- the event types it receives, or {'*'} for all
  events text[] NOT NULL,
  description text,
  -- whsec_… (Standard Webhooks): needed in clear to sign, shown to the caller only at creation
  secret text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  -- since when every attempt has failed (null after a success): three days of that disables the webhook
  failing_since timestamptz(3),
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (store_id, id)
);
CREATE INDEX webhooks_store_created_idx ON webhooks (store_id, created_at, id);

CREATE TABLE webhook_deliveries (
  store_id text NOT NULL,
  id text NOT NULL,
  webhook_id text NOT NULL,
  event_id text NOT NULL,
  type text NOT NULL,
  -- the body sent on every attempt (kept here: events are purged, and webhook.test events are not in the feed)
  payload text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  last_response_status integer,
  last_response_body text,
  last_error text,
  -- pending: when the next attempt is due (while an attempt runs: when its lease ends); else null
  next_attempt_at timestamptz(3),
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (store_id, id),
  FOREIGN KEY (store_id, webhook_id) REFERENCES webhooks (store_id, id) ON DELETE CASCADE
);
CREATE INDEX webhook_deliveries_webhook_idx ON webhook_deliveries (store_id, webhook_id, created_at, id);
-- The workers look across stores for due deliveries (like the purges, the one query here without store_id).
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
