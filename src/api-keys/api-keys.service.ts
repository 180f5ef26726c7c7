import type { Db } from '../db/database.js';
import { notFound } from '../errors.js';
import { generateApiKey, hashApiKey } from '../shared/api-key-format.js';
import { iso, isoOrNull } from '../shared/envelope.js';
import { isId, newId } from '../shared/ids.js';

export interface ApiKeyInput {
  name: string;
  scopes: string[];
}

function normalizeScopes(scopes: string[]): string[] {
  return scopes.includes('*') ? ['*'] : [...new Set(scopes)].sort();
}

export async function createApiKey(db: Db, storeId: string, input: ApiKeyInput) {
  const key = generateApiKey();
  const row = await db
    .insertInto('api_keys')
    .values({
      store_id: storeId,
      id: newId(),
      name: input.name,
      key_hash: hashApiKey(key),
      key_prefix: key.slice(0, 10),
      scopes: normalizeScopes(input.scopes),
    })
    .returning(['id', 'name', 'scopes', 'created_at'])
    .executeTakeFirstOrThrow();
  return { id: row.id, name: row.name, key, scopes: row.scopes, createdAt: iso(row.created_at) };
}

export async function listApiKeys(db: Db, storeId: string) {
  const rows = await db
    .selectFrom('api_keys')
    .select(['id', 'name', 'key_prefix', 'scopes', 'created_at', 'revoked_at'])
    .where('store_id', '=', storeId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    prefix: row.key_prefix,
    scopes: row.scopes,
    createdAt: iso(row.created_at),
    revokedAt: isoOrNull(row.revoked_at),
  }));
}

export async function revokeApiKey(db: Db, storeId: string, id: string): Promise<{ id: string }> {
  if (!isId(id)) throw notFound('API key');
  const row = await db
    .updateTable('api_keys')
    .set({ revoked_at: new Date() })
    .where('store_id', '=', storeId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  if (!row) throw notFound('API key');
  return { id: row.id };
}

/** The store and scopes of a live key, or undefined for an unknown or revoked one. */
export async function findLiveApiKey(db: Db, key: string) {
  return db
    .selectFrom('api_keys')
    .select(['store_id', 'id', 'scopes'])
    .where('key_hash', '=', hashApiKey(key))
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}
