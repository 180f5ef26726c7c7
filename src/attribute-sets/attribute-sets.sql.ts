import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { AttributeSetTable } from '../db/tables.js';
import { iso } from '../shared/envelope.js';
import { ilikeAny, type ListSpec } from '../shared/list.js';
import type { AttributeSet } from './attribute-sets.schema.js';

type Row = Omit<Selectable<AttributeSetTable>, 'store_id'>;

export const COLUMNS = ['id', 'name', 'status', 'created_at', 'updated_at'] as const;

export const listSpec: ListSpec = {
  sorts: { createdAt: sql`created_at`, name: sql`(lower(name) COLLATE "C")` },
  idColumn: sql`id`,
  search: ilikeAny(['name']),
};

export function toAttributeSetOutput(row: Row): AttributeSet {
  return { id: row.id, name: row.name, status: row.status, createdAt: iso(row.created_at), updatedAt: iso(row.updated_at) };
}

export function selectAttributeSets(db: Db, storeId: string) {
  return db.selectFrom('attribute_sets').select(COLUMNS).where('store_id', '=', storeId);
}
