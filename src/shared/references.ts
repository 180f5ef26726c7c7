import { sql } from 'kysely';
import type { DB, Db, Tx } from '../db/index.js';
import { type ErrorDetail, found, validationError } from '../errors.js';
import { isId } from './ids.js';

type StoreTable = { [K in keyof DB]: DB[K] extends { store_id: string; id: string } ? K : never }[keyof DB];

const MESSAGE = 'must be the id of an existing record of this store';

/**
 * The ids among `ids` that do not name a record of the caller's store, as `field[i]` details
 * (or `field` alone when `single`). Another store's id is indistinguishable from a missing one.
 */
export async function missingReferences(
  db: Db,
  table: StoreTable,
  storeId: string,
  ids: string[],
  field: string,
  single = false,
): Promise<ErrorDetail[]> {
  const valid = [...new Set(ids.filter(isId))];
  const found = valid.length
    ? await sql<{ id: string }>`select id from ${sql.table(table)} where store_id = ${storeId} and id = any(${valid}::text[])`.execute(db)
    : { rows: [] };
  const known = new Set(found.rows.map((row) => row.id));
  return ids.flatMap((id, index) =>
    known.has(id) ? [] : [{ field: single ? field : `${field}[${index}]`, in: 'body' as const, message: MESSAGE }],
  );
}

export async function assertReference(db: Db, table: StoreTable, storeId: string, id: string, field: string): Promise<void> {
  const details = await missingReferences(db, table, storeId, [id], field, true);
  if (details.length) throw validationError(details);
}

/** Whether `id` names a record of the store's `table`. */
export async function recordExists(db: Db, table: StoreTable, storeId: string, id: string): Promise<boolean> {
  if (!isId(id)) return false;
  const found = await sql<{ id: string }>`select id from ${sql.table(table)} where store_id = ${storeId} and id = ${id}`.execute(db);
  return found.rows.length > 0;
}

/**
 * `recordExists`, and the row stays locked FOR NO KEY UPDATE until the transaction ends: a parent's lock
 * serializes changes among its children, without blocking the key-share locks foreign keys to it take.
 */
export async function lockRecord(trx: Tx, table: StoreTable, storeId: string, id: string): Promise<boolean> {
  if (!isId(id)) return false;
  const found = await sql<{
    id: string;
  }>`select id from ${sql.table(table)} where store_id = ${storeId} and id = ${id} for no key update`.execute(trx);
  return found.rows.length > 0;
}

/**
 * Deletes the store's record `id` from `table` and returns its id; 404 naming `what` when there is none.
 * The id guard here is the one every delete shares: callers other than HTTP (CLI, imports) pass
 * unchecked ids too.
 */
export async function deleteRecord(db: Db, table: StoreTable, storeId: string, id: string, what: string): Promise<{ id: string }> {
  const deleted = isId(id)
    ? await sql<{ id: string }>`delete from ${sql.table(table)} where store_id = ${storeId} and id = ${id} returning id`.execute(db)
    : undefined;
  return { id: found(deleted?.rows[0], what).id };
}

/**
 * A record's current version for If-Match (CONTRACT §9.2): its row locked FOR UPDATE in the write's
 * transaction, then read exactly as GET reads it, so a concurrent write naming the same version waits
 * for this one and then compares against the new version (exactly one of them proceeds). A missing record
 * is `read`'s 404. Resources whose writes take another lock first (a parent row, a store-wide lock) take
 * that lock before calling this, in the same order as their writes, so the check never inverts it.
 */
export function lockedCurrent<T>(table: StoreTable, id: string, read: (db: Db, storeId: string, id: string) => Promise<T>) {
  return async (trx: Tx, storeId: string): Promise<T> => {
    if (isId(id)) await sql`select 1 from ${sql.table(table)} where store_id = ${storeId} and id = ${id} for update`.execute(trx);
    return read(trx, storeId, id);
  };
}
