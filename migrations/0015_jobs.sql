-- Jobs: long work (bulk imports first) that runs in the background of whichever server process is alive.
-- A job is claimed with FOR UPDATE SKIP LOCKED and held by a lease (lease_until, renewed while it runs,
-- lease_token naming the holder): when the holder dies, the lease runs out and any process claims it again.
-- An import commits its lines in batches; each batch's transaction also moves the job's counters and its
-- resume position (position_bytes, position_line), so a resumed job starts exactly after the last batch
-- that committed (src/jobs/README.md, docs/imports.md).
CREATE TABLE jobs (
  store_id text NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
  id text NOT NULL,
  type text NOT NULL,
  resource text NOT NULL,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
  -- the work's input, kind-specific (an import: the uploaded file's name under the data dir)
  params jsonb NOT NULL DEFAULT '{}',
  total integer,
  processed integer NOT NULL DEFAULT 0,
  created integer NOT NULL DEFAULT 0,
  updated integer NOT NULL DEFAULT 0,
  failed integer NOT NULL DEFAULT 0,
  -- where the next batch starts: bytes into the file, and the number of lines (blank ones too) before it
  position_bytes bigint NOT NULL DEFAULT 0,
  position_line integer NOT NULL DEFAULT 0,
  cancel_requested boolean NOT NULL DEFAULT false,
  lease_token text,
  lease_until timestamptz(3),
  -- why a job failed (an error of the job itself, not of a line)
  error text,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  started_at timestamptz(3),
  finished_at timestamptz(3),
  updated_at timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (store_id, id)
);
CREATE INDEX jobs_store_created_idx ON jobs (store_id, created_at, id);
-- The runners look across stores for runnable jobs (queued, or running with a lapsed lease).
CREATE INDEX jobs_runnable_idx ON jobs (created_at) WHERE status IN ('queued', 'running');

-- One row per failed line of a job: the API's error code, message and details for that line.
CREATE TABLE job_errors (
  store_id text NOT NULL,
  job_id text NOT NULL,
  line integer NOT NULL,
  code text NOT NULL,
  message text NOT NULL,
  details jsonb NOT NULL DEFAULT '[]',
  PRIMARY KEY (store_id, job_id, line),
  FOREIGN KEY (store_id, job_id) REFERENCES jobs (store_id, id) ON DELETE CASCADE
);
