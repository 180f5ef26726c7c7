-- A CSV import's error names the cell it is about: the header of the offending column (docs/csv-import.md).
-- NULL for an NDJSON line, and for a CSV error that no single cell caused.
ALTER TABLE job_errors ADD COLUMN column_name text;
