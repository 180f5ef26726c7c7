import type { Db } from '../db/index.js';

/**
 * Identical reads that arrive in the same turn of the event loop run once, their result shared: a hot list
 * page (a storefront's category, a sync job's first page polled by several workers) asked for by many clients
 * at once costs one statement, one socket write to PostgreSQL and one page of rows instead of one each.
 *
 * The read starts from `setImmediate`, after every request read in that turn has asked, as the batched GET by
 * id does (stored-documents.ts): each sharer's read is sent after its request arrived, so it sees every write
 * committed before that, its own included. A read that is already running is never joined: a request that
 * arrives during it gets a read of its own. Inside a transaction a read is the transaction's own.
 *
 * `key` names the read exactly (the store, the resource, the whole query): equal keys must mean equal
 * statements. The result is shared, so callers treat it as read-only.
 */
export function sharedRead<T>(db: Db, key: string, read: () => Promise<T>): Promise<T> {
  if (db.isTransaction) return read();
  let waiting = gathering.get(db);
  if (!waiting) {
    waiting = new Map();
    gathering.set(db, waiting);
  }
  const joined = waiting.get(key);
  if (joined) return joined as Promise<T>;
  const reads = waiting;
  const result = new Promise<T>((resolve, reject) => {
    setImmediate(() => {
      reads.delete(key);
      read().then(resolve, reject);
    });
  });
  reads.set(key, result);
  return result;
}

/** The reads gathered in this turn, per database handle, by key; a read leaves its map when it starts. */
const gathering = new WeakMap<Db, Map<string, Promise<unknown>>>();
