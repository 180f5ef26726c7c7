import type { Db } from '../db/index.js';
import { type PurgeJob, purgeOnce } from '../shared/index.js';
import { purgeOldBatch } from './events.sql.js';

const EVERY_MS = 10 * 60 * 1000;

/** The retention purge of the feed, run by the shared purge loop. */
export const eventPurge = (db: Db, retentionDays: number): PurgeJob => ({
  name: 'events past retention',
  deleteBatch: (size) => purgeOldBatch(db, retentionDays, size),
  everyMs: EVERY_MS,
});

/** One tick of it (tests). */
export const purgeOldEvents = (db: Db, retentionDays: number) => purgeOnce(eventPurge(db, retentionDays).deleteBatch);
