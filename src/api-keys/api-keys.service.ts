import type { Db } from '../db/index.js';
import { withTx } from '../db/index.js';
import { found } from '../errors.js';
import { generateApiKey, hashApiKey, isId, iso, isoOrNull, newId } from '../shared/index.js';
import { insertApiKey, revokeApiKeyRow, selectApiKeys, selectLiveApiKey } from './api-keys.sql.js';

export interface ApiKeyInput {
  name: string;
  scopes: string[];
}

function normalizeScopes(scopes: string[]): string[] {
  return scopes.includes('*') ? ['*'] : [...new Set(scopes)].sort();
}

export async function createApiKey(db: Db, storeId: string, input: ApiKeyInput) {
  const key = generateApiKey();
  const values = {
    store_id: storeId,
    id: newId(),
    name: input.name,
    key_hash: hashApiKey(key),
    key_prefix: key.slice(0, 10),
    scopes: normalizeScopes(input.scopes),
  };
  const row = await withTx(db, (trx) => insertApiKey(trx, values));
  return { id: row.id, name: row.name, key, scopes: row.scopes, createdAt: iso(row.created_at) };
}

export async function listApiKeys(db: Db, storeId: string) {
  const rows = await selectApiKeys(db, storeId);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    prefix: row.key_prefix,
    scopes: row.scopes,
    createdAt: iso(row.created_at),
    revokedAt: isoOrNull(row.revoked_at),
    lastUsedAt: isoOrNull(row.last_used_at),
  }));
}

export async function revokeApiKey(db: Db, storeId: string, id: string): Promise<{ id: string }> {
  const row = isId(id) && (await withTx(db, (trx) => revokeApiKeyRow(trx, storeId, id)));
  return { id: found(row, 'API key').id };
}

/** How the announcement of a key's change names it (migrations/0010), and the credential cache with it. */
export const apiKeyTag = (storeId: string, id: string) => `key:${storeId}:${id}`;

/** The store and scopes of a live key, or undefined for an unknown or revoked one. */
export function findLiveApiKey(db: Db, key: string) {
  return selectLiveApiKey(db, hashApiKey(key));
}
