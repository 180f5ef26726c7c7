import { sql } from 'kysely';
import type { Db, Tx } from '../db/index.js';

/**
 * The tables an export walks; each has `(store_id, id)` as its primary key and an `updated_at`, except
 * inventory_levels, walked by `(store_id, level_id)` (its item and location: migrations/0118).
 */
export type ExportTable = 'products' | 'collections' | 'attributes' | 'attribute_sets' | 'customers' | 'orders' | 'inventory_levels';

/** The column a table's records are walked and read by. */
const idColumn = (table: ExportTable) => sql.ref(table === 'inventory_levels' ? 'level_id' : 'id');

export interface ChunkQuery {
  /** the last id of the previous chunk (keyset), null for the first */
  after: string | null;
  /** records with updatedAt >= this, or all */
  updatedSince: Date | null;
  limit: number;
}

/**
 * The next chunk's ids in id order, walking the primary key `(store_id, id)`: each chunk costs the same
 * at any depth, and a record is met at most once even while others are inserted or deleted.
 */
export async function idsAfter(db: Db | Tx, table: ExportTable, storeId: string, query: ChunkQuery): Promise<string[]> {
  const id = idColumn(table);
  let select = db.selectFrom(table).select(sql<string>`${id}`.as('id')).where('store_id', '=', storeId);
  if (query.after !== null) select = select.where(id, '>', query.after);
  if (query.updatedSince !== null) select = select.where('updated_at', '>=', query.updatedSince);
  const rows = await select.orderBy(id).limit(query.limit).execute();
  return rows.map((row) => row.id);
}

/** How many records the export will stream (exact inside the snapshot on PostgreSQL). */
export async function countRecords(db: Db | Tx, table: ExportTable, storeId: string, updatedSince: Date | null): Promise<number> {
  let select = db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('store_id', '=', storeId);
  if (updatedSince !== null) select = select.where('updated_at', '>=', updatedSince);
  const row = await select.executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The tables whose records carry customFields a CSV export turns into columns. */
export type CustomFieldsTable = 'products' | 'variants' | 'customers' | 'orders';

/**
 * Every customFields key the store's records of `table` use, each once: a CSV export's header row is
 * written before its first record, so the columns those keys name are found first (in the snapshot on
 * PostgreSQL). All of the store's records, whatever `updatedSince`: a column no exported record fills
 * stays empty, which is harmless.
 */
export async function customFieldKeys(db: Db | Tx, table: CustomFieldsTable, storeId: string): Promise<string[]> {
  const { rows } = await sql<{ key: string }>`
    SELECT DISTINCT jsonb_object_keys(custom_fields) AS key FROM ${sql.table(table)} WHERE store_id = ${storeId}`.execute(db);
  return rows.map((row) => row.key);
}
