-- The retention purge of finished webhook deliveries (src/webhooks/purge.ts) looks across stores for
-- succeeded or failed deliveries last changed before the retention: this index keeps each batch a range
-- read instead of a scan of every delivery. Pending deliveries are never purged and stay out of it.
CREATE INDEX webhook_deliveries_finished_idx ON webhook_deliveries (updated_at) WHERE status <> 'pending';
