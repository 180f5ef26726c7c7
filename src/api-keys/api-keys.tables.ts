import type { ColumnType } from 'kysely';

/** API keys (migrations/0001_foundation.sql): only the key's hash and prefix are stored. */

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export interface ApiKeyTable {
  store_id: string;
  id: string;
  name: string;
  key_hash: string;
  key_prefix: string;
  scopes: string[];
  created_at: CreatedAt;
  revoked_at: Timestamp | null;
}

export interface ApiKeyTables {
  api_keys: ApiKeyTable;
}
