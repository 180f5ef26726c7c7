import { type Insertable, sql } from 'kysely';
import type { DB, Db } from '../db/index.js';

export function insertApiKey(db: Db, values: Insertable<DB['api_keys']>) {
  return db.insertInto('api_keys').values(values).returning(['id', 'name', 'scopes', 'created_at']).executeTakeFirstOrThrow();
}

/** Newest first; the key itself is never stored, only its hash and prefix. */
export function selectApiKeys(db: Db, storeId: string) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'name', 'key_prefix', 'scopes', 'created_at', 'revoked_at', 'last_used_at'])
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

/** A key's last use as a process noted it: the newest request it answered for the key. */
export interface KeyUse {
  storeId: string;
  id: string;
  at: Date;
}

/**
 * Every key's last use in one UPDATE of three array parameters, whatever their number (one statement shape).
 * A row moves only to a newer time, so when several processes write, the newest wins, whatever the order;
 * keys deleted meanwhile match nothing.
 */
export async function updateLastUsed(db: Db, uses: readonly KeyUse[]): Promise<number> {
  const result = await sql`
    UPDATE api_keys k SET last_used_at = u.at
    FROM unnest(${uses.map((use) => use.storeId)}::text[], ${uses.map((use) => use.id)}::text[],
      ${uses.map((use) => use.at.toISOString())}::timestamptz[]) AS u(store_id, id, at)
    WHERE k.store_id = u.store_id AND k.id = u.id AND (k.last_used_at IS NULL OR k.last_used_at < u.at)`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
