import type { Db } from '../db/index.js';
import { startPurgeLoop } from '../shared/index.js';
import { deleteAbandonedBlobs } from './blobs.sql.js';

/** A streamed write unfinished after this long belongs to a process that died mid-upload. */
const ABANDONED_AFTER_HOURS = 24;

/** Deletes the unfinished blobs of dead writers in the background; returns the stop function. */
export function startBlobPurge(db: Db, log: Parameters<typeof startPurgeLoop>[1]): () => void {
  return startPurgeLoop(
    { name: 'abandoned uploads', deleteBatch: (size) => deleteAbandonedBlobs(db, ABANDONED_AFTER_HOURS, size), everyMs: 15 * 60_000 },
    log,
  );
}
