import type { ColumnType } from 'kysely';

/** Stores and their admins (migrations/0001_foundation.sql). */

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export interface StoreTable {
  id: string;
  slug: string;
  name: string;
  created_at: CreatedAt;
}

export interface AdminTable {
  store_id: string;
  id: string;
  email: string;
  password_hash: string;
  created_at: CreatedAt;
}

export interface StoreTables {
  stores: StoreTable;
  admins: AdminTable;
}
