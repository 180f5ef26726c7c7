import type { ControlledTransaction } from 'kysely';
import type { DB, Db } from '../db/index.js';
import { withTx } from '../db/index.js';

/**
 * Where an export's chunks are read. On PostgreSQL: one REPEATABLE READ READ ONLY transaction held on
 * its own pool connection from the first read to `close`, so every chunk sees the same snapshot. On the
 * embedded engine a held transaction would hold its only session (every other request would wait for the
 * whole export): each chunk is its own short transaction instead, and other requests run between chunks.
 */
export interface ExportReader {
  consistency: 'snapshot' | 'per-chunk';
  /** runs one chunk's reads */
  read<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  /** ends the transaction (if any) and frees its connection; safe to call more than once */
  close(): Promise<void>;
}

export async function openSnapshotReader(db: Db): Promise<ExportReader> {
  const trx: ControlledTransaction<DB> = await db
    .startTransaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute();
  let closing: Promise<void> | null = null;
  return {
    consistency: 'snapshot',
    read: (fn) => fn(trx),
    close: () => {
      // A read-only transaction has nothing to keep: rollback also ends one whose statement failed.
      closing ??= trx
        .rollback()
        .execute()
        .catch(() => undefined);
      return closing;
    },
  };
}

export function openChunkReader(db: Db): ExportReader {
  return { consistency: 'per-chunk', read: (fn) => withTx(db, fn), close: async () => undefined };
}
