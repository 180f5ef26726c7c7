-- The feed read by type and by record, newest first (the console's Events screen, CONTRACT §12) and by record
-- on GET /events (`recordId`): each filter is a range of one index, store_id first, in feed order (xid, seq),
-- so a page costs the same whether the store has a thousand events or ten million, read forwards or backwards.
--
-- The record's id is a column the writer fills (it has the record in hand: src/events/events.sql.ts), not an
-- expression index on data->>'id': extracting a key from a json value parses the whole document, ~3.5 times a
-- plain read of the row's data per append (measured on 2.5 KB product events), a cost every write would pay.
-- Rows appended before this migration get theirs once, here. Nullable: a process still running the previous
-- code during a rolling start appends without it (its events are then not found by record until they age out).
ALTER TABLE events ADD COLUMN record_id text;
UPDATE events SET record_id = data->>'id';
ALTER TABLE events ALTER COLUMN record_id SET STATISTICS 10;
CREATE INDEX events_type_idx ON events (store_id, type, xid, seq);
CREATE INDEX events_record_idx ON events (store_id, record_id, xid, seq);
