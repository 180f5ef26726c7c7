import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/index.js';
import { purgeOnce, startPurgeLoop } from '../shared/index.js';
import { purgeExpiredBatch } from './idempotency.sql.js';

const LONGEST_PAUSE_MS = 10 * 60 * 1000;

/** Deletes expired keys until none are left (or the tick's share is done); returns how many. */
export const purgeExpiredKeys = (db: Db): Promise<number> => purgeOnce((size) => purgeExpiredBatch(db, size));

/** Expired keys are already free (lookups ignore them); the purge only keeps the table small. */
export function startKeyPurge(db: Db, ttlSeconds: number, log: FastifyBaseLogger): () => void {
  const everyMs = Math.min(ttlSeconds * 1000, LONGEST_PAUSE_MS);
  return startPurgeLoop({ name: 'expired idempotency keys', deleteBatch: (size) => purgeExpiredBatch(db, size), everyMs }, log);
}
