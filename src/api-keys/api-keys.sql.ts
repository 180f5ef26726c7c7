import type { Insertable } from 'kysely';
import type { DB, Db } from '../db/index.js';

export function insertApiKey(db: Db, values: Insertable<DB['api_keys']>) {
  return db.insertInto('api_keys').values(values).returning(['id', 'name', 'scopes', 'created_at']).executeTakeFirstOrThrow();
}

/** Newest first; the key itself is never stored, only its hash and prefix. */
export function selectApiKeys(db: Db, storeId: string) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'name', 'key_prefix', 'scopes', 'created_at', 'revoked_at'])
    .where('store_id', '=', storeId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** undefined when the store has no live key with this id. */
export function revokeApiKeyRow(db: Db, storeId: string, id: string) {
  return db
    .updateTable('api_keys')
    .set({ revoked_at: new Date() })
    .where('store_id', '=', storeId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
}

/** By hash, before the store is known (api_keys_key_hash_key). */
export function selectLiveApiKey(db: Db, keyHash: string) {
  return db
    .selectFrom('api_keys')
    .select(['store_id', 'id', 'scopes', 'name'])
    .where('key_hash', '=', keyHash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}
