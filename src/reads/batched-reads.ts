import DataLoader from 'dataloader';
import { type Db, readTargetOf } from '../db/index.js';
import { afterRunning } from './shared-reads.js';

/**
 * Reads by key gathered into one statement: the reads of one batch (one store's stored documents, one
 * store's prices in one currency for one buyer) made in the same turn of the event loop go to the engine as
 * one statement, sent from `setImmediate` once every request read in that turn has asked. Each statement
 * costs the server a socket write that wakes a backend, a third of a GET's server time on a two-core machine
 * (docs/decisions.md, "GET by id read in batches").
 *
 * One batch of a kind is in flight at a time: the reads that arrive while it runs wait for it and go together
 * as the next. Sent as soon as they arrived, they were a statement each whenever the engine answered more
 * slowly than requests came: on the embedded engine, one session, 8,000 GETs by 20 clients made 5,561
 * statements. A waiting read still goes out after it was asked, so it sees what a read of its own would see.
 *
 * `batch` names the statement exactly but for its keys (the store, and every parameter besides the keys):
 * reads with equal `batch` share the `load` of the first of them. Outside a transaction only (the caller reads
 * in its transaction itself).
 */
export function batchedRead<V>(
  db: Db,
  batch: string,
  key: string,
  load: (keys: readonly string[]) => Promise<Map<string, V>>,
): Promise<V | undefined> {
  const perBatch = readsOf.get(db) ?? new Map<string, BatchReads<unknown>>();
  readsOf.set(db, perBatch);
  // with read replicas: a batch is of requests routed to the same place (src/db/replicas.ts, readTargetOf)
  const name = `${batch} ${readTargetOf(db)}`;
  const reads = (perBatch.get(name) ?? {}) as BatchReads<V>;
  perBatch.set(name, reads as BatchReads<unknown>);
  reads.gathering ??= new DataLoader(
    async (keys: readonly string[]) => {
      reads.gathering = undefined;
      const flight = load(keys);
      reads.inFlight = flight;
      try {
        const found = await flight;
        return keys.map((one) => found.get(one));
      } finally {
        if (reads.inFlight === flight) reads.inFlight = undefined;
        if (!reads.gathering && !reads.inFlight) perBatch.delete(name);
      }
    },
    { cache: false, maxBatchSize: 100, batchScheduleFn: (send) => setImmediate(() => afterRunning(() => reads.inFlight, send)) },
  );
  return reads.gathering.load(key);
}

interface BatchReads<V> {
  /** the batch being gathered (it leaves when it is sent) */
  gathering?: DataLoader<string, V | undefined>;
  /** the batch sent and not yet answered */
  inFlight?: Promise<unknown>;
}

// per database handle (a replica's reads are its own), the batches by name
const readsOf = new WeakMap<Db, Map<string, BatchReads<unknown>>>();
