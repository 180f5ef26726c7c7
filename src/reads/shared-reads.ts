import { type Db, readTargetOf } from '../db/index.js';

/**
 * Identical reads made together run once, their result shared: a hot list page (a storefront's category, a
 * sync job's first page polled by several workers) asked for by many clients at once costs one statement, one
 * socket write to PostgreSQL and one page of rows instead of one each.
 *
 * The reads that arrive in the same turn of the event loop gather, and the read starts from `setImmediate`,
 * after every request read in that turn has asked, as the batched GET by id does (batched-reads.ts). While
 * an identical read is running, the gathered ones wait for it to end and then start together: sent as soon as
 * they gathered, they were a statement each whenever the engine answered more slowly than requests came (the
 * embedded engine, one session). A running read is never joined: each sharer's read starts after its request
 * arrived, so it sees every write committed before that, its own included. Inside a transaction a read is the
 * transaction's own.
 *
 * `key` names the read exactly (the store, the resource, the whole query): equal keys must mean equal
 * statements. The result is shared, so callers treat it as read-only.
 */
export function sharedRead<T>(db: Db, query: string, read: () => Promise<T>): Promise<T> {
  if (db.isTransaction) return read();
  // with read replicas: shared only by requests routed to the same place (src/db/replicas.ts, readTargetOf)
  const key = `${readTargetOf(db)} ${query}`;
  const reads = readsOf(db);
  const joined = reads.gathering.get(key);
  if (joined) return joined as Promise<T>;
  const result = new Promise<T>((resolve, reject) => {
    const start = () => {
      reads.gathering.delete(key);
      const run = read();
      reads.running.set(key, run);
      // Attached first, so a waiter finds the map cleared when this run's end wakes it.
      const ended = () => {
        if (reads.running.get(key) === run) reads.running.delete(key);
      };
      run.then(ended, ended);
      run.then(resolve, reject);
    };
    setImmediate(() => afterRunning(() => reads.running.get(key), start));
  });
  reads.gathering.set(key, result);
  return result;
}

interface Reads {
  /** the reads gathering (not started yet), by key; a read leaves when it starts */
  gathering: Map<string, Promise<unknown>>;
  /** the reads running, by key; a read leaves when it ends */
  running: Map<string, Promise<unknown>>;
}

const readsByDb = new WeakMap<Db, Reads>();

function readsOf(db: Db): Reads {
  let reads = readsByDb.get(db);
  if (!reads) {
    reads = { gathering: new Map(), running: new Map() };
    readsByDb.set(db, reads);
  }
  return reads;
}

/**
 * `go` once nothing is running: at once when `running()` is undefined, else when what it returns has ended
 * (succeeded or failed), asked again then. How a gathered read waits for the identical read, or the batch, in
 * flight before it (here and batched-reads.ts).
 */
export function afterRunning(running: () => Promise<unknown> | undefined, go: () => void): void {
  const current = running();
  if (!current) {
    go();
    return;
  }
  const again = () => afterRunning(running, go);
  current.then(again, again);
}
