-- Bytes that a request or a job may need on any machine (uploaded media, import uploads), kept in the
-- database so that no process depends on another one's disk. A blob is split into fixed-size chunks
-- (src/blobs: the last one may be shorter), so a reader streams it a chunk at a time and can start at any
-- byte. `size` stays null while a streamed write is in progress: only a blob with a size is readable.
-- Blobs are addressed by their own key (a content address for media, a random name for uploads), never by
-- store: these are not store-owned tables.
CREATE TABLE blobs (
  key text PRIMARY KEY,
  size bigint,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE blob_chunks (
  key text NOT NULL REFERENCES blobs (key) ON DELETE CASCADE,
  seq integer NOT NULL,
  data bytea NOT NULL,
  PRIMARY KEY (key, seq)
);
-- Images arrive compressed already: store chunks out of line without trying to compress them again.
ALTER TABLE blob_chunks ALTER COLUMN data SET STORAGE EXTERNAL;
