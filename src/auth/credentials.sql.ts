import type { Db } from '../db/index.js';

/**
 * One lookup on the admins primary key (store_id, id): the admin's email, or null when the admin is gone (a
 * deleted store takes its admins with it).
 */
export async function adminEmail(db: Db, storeId: string, adminId: string): Promise<string | null> {
  const row = await db.selectFrom('admins').select('email').where('store_id', '=', storeId).where('id', '=', adminId).executeTakeFirst();
  return row?.email ?? null;
}
