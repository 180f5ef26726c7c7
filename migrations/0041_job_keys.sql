-- What a dry-run import remembers across its batches (src/imports/dry-run.ts): each batch is rolled back,
-- so the natural keys its lines created ('created <key>') and the unique values they claimed
-- ('<field> <value>', held by `holder`) are written here with the batch's progress instead. A dry run
-- resumed in any process (its turn handed to another store, a crash, a restart) judges its later lines
-- exactly. Removed with the job.
CREATE TABLE job_keys (
  store_id text NOT NULL,
  job_id text NOT NULL,
  key text NOT NULL,
  holder text NOT NULL DEFAULT '',
  PRIMARY KEY (store_id, job_id, key),
  FOREIGN KEY (store_id, job_id) REFERENCES jobs (store_id, id) ON DELETE CASCADE
);
