import type { Db } from '../db/index.js';
import { type Claimed, type Recorded, recordAttempts } from './worker.sql.js';

// A webhook whose deliveries have failed for this long is turned off (recordAttempts).
const DISABLE_AFTER_DAYS = 3;
// A write of outcomes that fails (the database was away, a deadlock) is tried again this often, then given
// up: those attempts are retried when their lease ends.
const RECORD_TRIES = 3;

function byStore<T extends { claimed: Claimed }>(entries: T[]): Map<string, T[]> {
  const stores = new Map<string, T[]>();
  for (const entry of entries) stores.set(entry.claimed.store_id, [...(stores.get(entry.claimed.store_id) ?? []), entry]);
  return stores;
}

/**
 * Writes attempts' outcomes as they finish: one statement per store for all that finished while the previous
 * write ran (under a backlog, a handful per write instead of a transaction each). `record` resolves once its outcome
 * is written (or given up), so an attempt holds its slot until then.
 */
export function outcomeRecorder(db: Db, log: { warn(object: object, message: string): void }) {
  let queue: { claimed: Claimed; recorded: Recorded; done: () => void }[] = [];
  let writing = false;
  const drain = async () => {
    writing = true;
    while (queue.length) {
      const batch = queue;
      queue = [];
      for (let tries = 1; ; tries++) {
        try {
          // a batch tried again rewrites nothing already written: an outcome is written only at its attempt
          for (const [storeId, outcomes] of byStore(batch)) await recordAttempts(db, storeId, outcomes, DISABLE_AFTER_DAYS);
          break;
        } catch (error) {
          if (tries >= RECORD_TRIES) {
            log.warn({ err: error, attempts: batch.length }, 'recording webhook attempts failed; they are retried when their lease ends');
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 200 * tries));
        }
      }
      for (const entry of batch) entry.done();
    }
    writing = false;
  };
  return {
    record: (claimed: Claimed, recorded: Recorded) =>
      new Promise<void>((done) => {
        queue.push({ claimed, recorded, done });
        if (!writing) void drain();
      }),
  };
}
