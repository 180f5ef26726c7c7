-- When a streamed blob was finished (its size set): an import's upload that no job names is removed a few
-- minutes after it was finished (src/imports/orphan-uploads.ts), never while the request that stored it may
-- still be creating its job, however long the body took to arrive (created_at is when it started).
-- Blobs finished before this column existed count from created_at.
ALTER TABLE blobs ADD COLUMN finished_at timestamptz;
