import type { Insertable } from 'kysely';
import type { DB, Db } from '../db/index.js';

export interface SessionRow {
  storeId: string;
  adminId: string;
  email: string;
  storeSlug: string;
  storeName: string;
}

export async function insertSession(db: Db, session: Insertable<DB['console_sessions']>): Promise<void> {
  await db.insertInto('console_sessions').values(session).execute();
}

/** The live session with its admin and store: no row once either is deleted (or the session expired). */
export function selectLiveSession(db: Db, storeId: string, secretHash: string): Promise<SessionRow | undefined> {
  return db
    .selectFrom('console_sessions as s')
    .innerJoin('admins as a', (join) => join.onRef('a.store_id', '=', 's.store_id').onRef('a.id', '=', 's.admin_id'))
    .innerJoin('stores as st', 'st.id', 's.store_id')
    .select(['s.store_id as storeId', 's.admin_id as adminId', 'a.email', 'st.slug as storeSlug', 'st.name as storeName'])
    .where('s.store_id', '=', storeId)
    .where('s.secret_hash', '=', secretHash)
    .where('s.expires_at', '>', new Date())
    .executeTakeFirst();
}

export async function deleteSession(db: Db, storeId: string, secretHash: string): Promise<void> {
  await db.deleteFrom('console_sessions').where('store_id', '=', storeId).where('secret_hash', '=', secretHash).execute();
}

/** An admin's expired sessions, and all but the newest `keep` of the others. */
export async function deleteStaleSessions(db: Db, storeId: string, adminId: string, keep: number): Promise<void> {
  await db
    .deleteFrom('console_sessions')
    .where('store_id', '=', storeId)
    .where('admin_id', '=', adminId)
    .where((eb) =>
      eb.or([
        eb('expires_at', '<=', new Date()),
        eb(
          'secret_hash',
          'not in',
          eb
            .selectFrom('console_sessions')
            .select('secret_hash')
            .where('store_id', '=', storeId)
            .where('admin_id', '=', adminId)
            .orderBy('created_at', 'desc')
            .limit(keep),
        ),
      ]),
    )
    .execute();
}
