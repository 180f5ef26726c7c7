-- Jobs are taken in turn across stores: when a job's store was last given a batch. A claim prefers the
-- runnable job of the store served longest ago (never served first), so one store's long import no longer
-- holds every other store's jobs behind it (src/jobs/jobs.sql.ts, claimJob).
CREATE TABLE job_turns (
  store_id text PRIMARY KEY REFERENCES stores (id) ON DELETE CASCADE,
  served_at timestamptz(3) NOT NULL
);
-- The retention purge finds finished jobs by their end.
CREATE INDEX jobs_finished_idx ON jobs (finished_at) WHERE status IN ('succeeded', 'failed', 'cancelled');
