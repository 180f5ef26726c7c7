-- Webhook deliveries are derived from the feed by the delivery workers, no longer written by every write
-- (docs/webhooks.md). The fan-out trigger made each write insert one delivery per matching webhook in its own
-- transaction: 500 webhooks on one store made another store's writes (and feeds) wait behind it, and a
-- webhook deleted while a write fanned out failed that unrelated write with a foreign-key violation (400
-- `reference`). Now each webhook has a cursor in its store's feed: a worker reads the events after it, as
-- the feed does (commit order, below its snapshot's xmin), inserts their deliveries and moves the cursor, in
-- one statement per batch. A write pays nothing for webhooks.
DROP TRIGGER events_webhook_fan_out ON events;
DROP FUNCTION webhook_fan_out();

-- Where the webhook is in its store's feed: deliveries exist for every event it subscribes to up to here.
-- A new (or re-enabled) webhook starts at the feed's present: the events of transactions that were still
-- running then are after it, every committed one before it.
ALTER TABLE webhooks
  ADD COLUMN cursor_xid xid8 NOT NULL DEFAULT pg_snapshot_xmin(pg_current_snapshot()),
  ADD COLUMN cursor_seq bigint NOT NULL DEFAULT 0,
  -- attempts in a row that got no answer in time: a receiver that keeps hanging is paused (backed off)
  ADD COLUMN timeouts integer NOT NULL DEFAULT 0,
  ADD COLUMN paused_until timestamptz(3);

-- Per record order: for one webhook, a pending delivery waits while an earlier pending one is about the same
-- record (data.id). `ordinal` is the order deliveries were made in (feed order for the cursor's; a replay's
-- come after, in feed order among themselves); webhook.test deliveries have no record and never wait.
ALTER TABLE webhook_deliveries
  ADD COLUMN record_id text,
  ADD COLUMN ordinal bigint GENERATED ALWAYS AS IDENTITY;
ALTER TABLE webhook_deliveries ALTER COLUMN record_id SET STATISTICS 10, ALTER COLUMN ordinal SET STATISTICS 10;
CREATE INDEX webhook_deliveries_record_order_idx ON webhook_deliveries (store_id, webhook_id, record_id, ordinal)
  WHERE status = 'pending' AND record_id IS NOT NULL;
-- The claim walks the stores that have due deliveries, one index probe per store (turns across stores).
CREATE INDEX webhook_deliveries_store_due_idx ON webhook_deliveries (store_id, next_attempt_at) WHERE status = 'pending';

-- Replays (POST /webhooks/{id}/replay): a range of the feed to deliver again, walked by the workers in
-- batches with a cursor of its own, so a replay of a million events is neither one transaction nor one
-- buffer. Events from its start up to the feed's present when it was asked (end_xid), within since/until.
CREATE TABLE webhook_replays (
  store_id text NOT NULL,
  id text NOT NULL,
  webhook_id text NOT NULL,
  cursor_xid xid8 NOT NULL,
  cursor_seq bigint NOT NULL,
  end_xid xid8 NOT NULL,
  since timestamptz(3),
  until timestamptz(3),
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (store_id, id),
  FOREIGN KEY (store_id, webhook_id) REFERENCES webhooks (store_id, id) ON DELETE CASCADE
);
