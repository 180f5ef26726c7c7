-- Nothing changes silently (CONTRACT §10.4): an import reports every value it changes or makes up (a handle made a
-- slug, a SKU the file did not give, a value cut to fit) as a row of GET /jobs/{id}/errors with level 'warning';
-- the line's refusal keeps level 'error'. A record may have several warnings (its handle and its SKU), so a row is
-- keyed by its line and its place among that line's rows (seq; the error of a line is its only row, seq 0).
-- jobs.warnings counts every warning, like failed counts every refused line (rows are capped: 1,000 a job,
-- errors first).
ALTER TABLE job_errors ADD COLUMN level text NOT NULL DEFAULT 'error' CHECK (level IN ('error', 'warning'));
ALTER TABLE job_errors ADD COLUMN seq integer NOT NULL DEFAULT 0;
ALTER TABLE job_errors DROP CONSTRAINT job_errors_pkey;
ALTER TABLE job_errors ADD PRIMARY KEY (store_id, job_id, line, seq);
ALTER TABLE jobs ADD COLUMN warnings integer NOT NULL DEFAULT 0;
