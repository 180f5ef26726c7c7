-- The feed's rows no longer reference stores by a foreign key. The key's check ran once per appended event
-- (a lookup of the store that also share-locks its row): ~10 µs per event, a quarter of what the feed added
-- to a checkout's database time with its four events (docs/performance.md, "Round 5: stored product
-- documents"). An event is only ever written by a write of an authenticated store, in that write's
-- transaction, so the key guarded nothing the write path does not; what it also did, delete a store's events
-- with the store, the retention purge does (stores are not deleted through the API).
ALTER TABLE events DROP CONSTRAINT events_store_id_fkey;
