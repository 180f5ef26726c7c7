import type { Db } from '../db/index.js';

/** One lookup on the admins primary key (store_id, id); a deleted store takes its admins with it. */
export async function adminExists(db: Db, storeId: string, adminId: string): Promise<boolean> {
  const row = await db.selectFrom('admins').select('id').where('store_id', '=', storeId).where('id', '=', adminId).executeTakeFirst();
  return row !== undefined;
}
