-- "Download failed rows" (GET /jobs/{id}/failed-rows, the console's Imports screen): an import's failed line as
-- it was in the file, kept with its error row, because the upload itself is removed when the job ends.
-- NDJSON: the line's text (a JSON string); CSV: the records of the line (a product's rows), each an array of its
-- cells as the file had them. NULL for a line too large to keep (over 64 KB, src/imports/import-job.ts) or an
-- error row written before this column. Bounded like the error rows themselves (1,000 per job) and purged with them.
ALTER TABLE job_errors ADD COLUMN source jsonb;
