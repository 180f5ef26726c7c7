-- A replay is delivered from the feed through a cursor of its own (src/webhooks/replays.sql.ts): a worker
-- claims the replay, sends the next events after its cursor in feed order, and moves the cursor past each one
-- answered. No delivery row is written per event (only one for an event that finally fails), so a replay of
-- 220,000 events writes a handful of rows. At most one replay per webhook at a time: a second one is a 409.
-- Replays queued before this change keep running; of several for one webhook, the oldest stays.
DELETE FROM webhook_replays r
WHERE EXISTS (
  SELECT 1 FROM webhook_replays o
  WHERE o.store_id = r.store_id AND o.webhook_id = r.webhook_id AND (o.created_at, o.id) < (r.created_at, r.id)
);

ALTER TABLE webhook_replays
  -- the attempt number of the event at the cursor (0: none failed yet), counted at the claim like a delivery's
  ADD COLUMN attempts integer NOT NULL DEFAULT 0,
  -- when the replay may be claimed: now, after a failed attempt's retry delay, or the end of a claim's lease
  ADD COLUMN next_attempt_at timestamptz(3) NOT NULL DEFAULT now(),
  -- events sent and answered with a 2xx so far
  ADD COLUMN sent bigint NOT NULL DEFAULT 0;

CREATE UNIQUE INDEX webhook_replays_one_per_webhook ON webhook_replays (store_id, webhook_id);
CREATE INDEX webhook_replays_due ON webhook_replays (next_attempt_at);
