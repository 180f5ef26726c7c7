import type { Db } from '../db/index.js';

/** Every statement on blobs and blob_chunks. */

/** Creates the blob row, unfinished (no size): false when the key exists already. */
export async function insertBlob(db: Db, key: string): Promise<boolean> {
  const row = await db
    .insertInto('blobs')
    .values({ key, size: null })
    .onConflict((oc) => oc.doNothing())
    .returning('key')
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertChunk(db: Db, key: string, seq: number, data: Uint8Array): Promise<void> {
  await db.insertInto('blob_chunks').values({ key, seq, data }).execute();
}

export async function finishBlob(db: Db, key: string, size: number): Promise<void> {
  await db.updateTable('blobs').set({ size, finished_at: new Date() }).where('key', '=', key).execute();
}

/** A page of the keys under `prefix` of blobs finished before `before`, in key order after `after`. */
export async function selectFinishedBlobKeys(db: Db, prefix: string, before: Date, after: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('blobs')
    .select('key')
    .where('key', '>', after)
    .where('key', 'like', `${prefix}%`)
    .where('size', 'is not', null)
    .where((eb) => eb(eb.fn.coalesce('finished_at', 'created_at'), '<', before))
    .orderBy('key')
    .limit(limit)
    .execute();
  return rows.map((row) => row.key);
}

/** The size of a finished blob; null when it is unknown or still being written. */
export async function selectBlobSize(db: Db, key: string): Promise<number | null> {
  const row = await db.selectFrom('blobs').select('size').where('key', '=', key).executeTakeFirst();
  return row?.size == null ? null : Number(row.size);
}

export async function selectChunk(db: Db, key: string, seq: number): Promise<Uint8Array | null> {
  const row = await db.selectFrom('blob_chunks').select('data').where('key', '=', key).where('seq', '=', seq).executeTakeFirst();
  return row?.data ?? null;
}

export async function deleteBlobRow(db: Db, key: string): Promise<void> {
  await db.deleteFrom('blobs').where('key', '=', key).execute();
}

/** At most `limit` unfinished blobs older than `hours` (a writer that died mid-stream), deleted with their chunks. */
export async function deleteAbandonedBlobs(db: Db, hours: number, limit: number): Promise<number> {
  const before = new Date(Date.now() - hours * 3_600_000);
  const result = await db
    .deleteFrom('blobs')
    .where('key', 'in', (qb) =>
      qb.selectFrom('blobs').select('key').where('size', 'is', null).where('created_at', '<', before).limit(limit).forUpdate().skipLocked(),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
