import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/index.js';
import { purgeExpiredBatch } from './idempotency.sql.js';

const BATCH = 500;
// One tick deletes at most this many batches; what is left goes on the next tick, so a backlog never
// turns into one long-running job.
const MAX_BATCHES_PER_TICK = 20;
const LONGEST_PAUSE_MS = 10 * 60 * 1000;

/** Deletes expired keys until none are left (or the tick's share is done); returns how many. */
export async function purgeExpiredKeys(db: Db): Promise<number> {
  let total = 0;
  for (let batch = 0; batch < MAX_BATCHES_PER_TICK; batch++) {
    const deleted = await purgeExpiredBatch(db, BATCH);
    total += deleted;
    if (deleted < BATCH) break;
  }
  return total;
}

/**
 * Expired keys are already free (lookups ignore them); this only keeps the table small. A timer that
 * never holds the process open; every process may run one (the purge skips rows another one holds).
 */
export function startKeyPurge(db: Db, ttlSeconds: number, log: FastifyBaseLogger): () => void {
  let running = false;
  const timer = setInterval(
    () => {
      if (running) return;
      running = true;
      purgeExpiredKeys(db)
        .then((count) => count > 0 && log.debug({ count }, 'purged expired idempotency keys'))
        .catch((error) => log.warn({ err: error }, 'idempotency key purge failed'))
        .finally(() => {
          running = false;
        });
    },
    Math.min(ttlSeconds * 1000, LONGEST_PAUSE_MS),
  );
  timer.unref();
  return () => clearInterval(timer);
}
