import type { Db } from '../db/index.js';
import { type PurgeJob, purgeOnce } from '../shared/index.js';
import { deleteBeyondNewest, deleteOlderThan, storesWithOld } from './request-log.sql.js';

/** The newest requests kept per store (CONTRACT §12). */
export const KEEP_PER_STORE = 10_000;

// A busy process writes thousands of requests a second: every 10 s, up to 20 batches of 5,000 (the loop's
// share of a tick), keeps up with 10,000 a second.
const EVERY_MS = 10_000;
const BATCH_SIZE = 5_000;

/**
 * The log's two bounds, run by the shared purge loop every 10 seconds. The count: only stores this process wrote to since
 * it last found them within it (`written`, filled by the writer), since a store nobody writes to cannot go
 * over it; each costs a walk of the store's newest 10,000 index entries. The age: every store, one
 * probe of its part of the primary key each, then a delete per store with old rows.
 */
export function requestLogPurge(db: Db, written: Set<string>, days: number, keep = KEEP_PER_STORE): PurgeJob {
  return {
    name: 'request log beyond its bounds',
    everyMs: EVERY_MS,
    batchSize: BATCH_SIZE,
    async deleteBatch(size) {
      let deleted = 0;
      for (const storeId of written) {
        const share = size - deleted;
        const count = await deleteBeyondNewest(db, storeId, keep, share);
        if (count < share) written.delete(storeId);
        deleted += count;
        if (deleted >= size) return deleted;
      }
      for (const storeId of await storesWithOld(db, days)) {
        if (deleted >= size) break;
        deleted += await deleteOlderThan(db, storeId, days, size - deleted);
      }
      return deleted;
    },
  };
}

/** One tick of it (tests). */
export const purgeRequestLog = (db: Db, written: Set<string>, days: number, keep = KEEP_PER_STORE) =>
  purgeOnce(requestLogPurge(db, written, days, keep).deleteBatch, BATCH_SIZE);
