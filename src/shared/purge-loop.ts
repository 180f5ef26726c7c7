/**
 * The one background purge of the service: rows that have outlived their use (expired idempotency keys,
 * events past retention) are deleted in small batches on a timer. Each user hands over how to delete one
 * batch; the pacing, the one-at-a-time guard and the logging live here once.
 */

export interface PurgeJob {
  /** what is purged, for the log lines */
  name: string;
  /** deletes at most `size` rows, returns how many it deleted */
  deleteBatch: (size: number) => Promise<number>;
  /** pause between ticks */
  everyMs: number;
  /** rows per batch (default 500): larger for a table written as fast as requests arrive (the Requests log) */
  batchSize?: number;
}

interface PurgeLog {
  debug(object: object, message: string): void;
  warn(object: object, message: string): void;
}

const BATCH = 500;
// One tick deletes at most this many batches; what is left goes on the next tick, so a backlog never
// turns into one long-running job.
const MAX_BATCHES_PER_TICK = 20;

/** Deletes batches until one comes back short (or the tick's share is done); returns how many rows. */
export async function purgeOnce(deleteBatch: PurgeJob['deleteBatch'], size = BATCH): Promise<number> {
  let total = 0;
  for (let batch = 0; batch < MAX_BATCHES_PER_TICK; batch++) {
    const deleted = await deleteBatch(size);
    total += deleted;
    if (deleted < size) break;
  }
  return total;
}

/**
 * Deletes a batch store by store: `rows` are the batch's candidates (of any stores, read without a lock),
 * `deleteOf` deletes one store's (skipping rows another process holds) and says how many it deleted. No
 * statement then locks rows of two stores (docs/scaling.md, §5).
 */
export async function deleteStoreByStore<T extends { store_id: string }>(
  rows: readonly T[],
  deleteOf: (storeId: string, rows: T[]) => Promise<number>,
): Promise<number> {
  const stores = new Map<string, T[]>();
  for (const row of rows) stores.set(row.store_id, [...(stores.get(row.store_id) ?? []), row]);
  let deleted = 0;
  for (const [storeId, ofStore] of stores) deleted += await deleteOf(storeId, ofStore);
  return deleted;
}

/**
 * A timer that never holds the process open and never overlaps itself; every process may run one (the
 * batches skip rows another process holds). Returns the stop function.
 */
export function startPurgeLoop(job: PurgeJob, log: PurgeLog): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    purgeOnce(job.deleteBatch, job.batchSize)
      .then((count) => count > 0 && log.debug({ count }, `purged ${job.name}`))
      .catch((error) => log.warn({ err: error }, `${job.name} purge failed`))
      .finally(() => {
        running = false;
      });
  }, job.everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
