import type { ColumnType } from 'kysely';

/** The table of recorded idempotent outcomes (migrations/0005_idempotency.sql). */

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, Date | string>;

export interface IdempotencyKeyTable {
  store_id: string;
  key: string;
  fingerprint: string;
  request_method: string;
  request_path: string;
  status: number;
  body: string;
  etag: string | null;
  created_at: CreatedAt;
  expires_at: Timestamp;
}

export interface IdempotencyTables {
  idempotency_keys: IdempotencyKeyTable;
}
