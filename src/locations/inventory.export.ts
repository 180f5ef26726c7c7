import type { Db } from '../db/index.js';
import { getInventoryRecordsByIds } from './inventory.sql.js';
import { type InventoryLine, toInventoryLine } from './inventory-line.schema.js';

/** GET /exports/inventory's NDJSON: the levels among `ids` as inventory lines, which the import reads back as they are. */
export async function getInventoryLinesByIds(db: Db, storeId: string, ids: string[]): Promise<InventoryLine[]> {
  return (await getInventoryRecordsByIds(db, storeId, ids)).map(toInventoryLine);
}
