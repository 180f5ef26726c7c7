-- A product import line that would change nothing writes nothing (docs/imports.md, "Unchanged lines").
-- Every import write of a product records the sha256 of the line it applied (import_digest) and the
-- updated_at that write left (import_digest_at). A later line with the same digest, on a product whose
-- updated_at is still import_digest_at (nothing changed it since: updated_at moves on every change of the
-- representation, variants and memberships included), is counted as updated without a write or an event.
-- Nullable, no default: adding them rewrites nothing. Read through the (store_id, handle) key.
ALTER TABLE products
  ADD COLUMN import_digest text,
  ADD COLUMN import_digest_at timestamptz(3);
