import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { DB, Db, Tx } from '../db/index.js';
import { ilikeAny, type ListSpec } from '../reads/index.js';
import { iso, newId } from '../shared/index.js';
import type { ATTRIBUTE_SET_SORTS, AttributeSet } from './attribute-sets.schema.js';

type Row = Omit<Selectable<DB['attribute_sets']>, 'store_id'>;

export const COLUMNS = ['id', 'name', 'status', 'created_at', 'updated_at'] as const;

export const listSpec: ListSpec<typeof ATTRIBUTE_SET_SORTS> = {
  path: '/attribute-sets',
  sorts: { createdAt: sql`created_at`, updatedAt: sql`updated_at`, name: sql`(lower(name) COLLATE "C")` },
  idColumn: sql`id`,
  search: ilikeAny(['name']),
};

export function toAttributeSetOutput(row: Row): AttributeSet {
  return { id: row.id, name: row.name, status: row.status, createdAt: iso(row.created_at), updatedAt: iso(row.updated_at) };
}

export function selectAttributeSets(db: Db, storeId: string) {
  return db.selectFrom('attribute_sets').select(COLUMNS).where('store_id', '=', storeId);
}

export function findAttributeSetRow(db: Db, storeId: string, id: string): Promise<Row | undefined> {
  return selectAttributeSets(db, storeId).where('id', '=', id).executeTakeFirst();
}

/** GET /attribute-sets before its page: the store's sets, of `status` when given. */
export function selectAttributeSetList(db: Db, storeId: string, status: string | undefined) {
  const base = selectAttributeSets(db, storeId);
  return status ? base.where('status', '=', status) : base;
}

export function insertAttributeSet(db: Db, storeId: string, values: { name: string; status: string }): Promise<Row> {
  const now = new Date();
  return db
    .insertInto('attribute_sets')
    .values({ store_id: storeId, id: newId(), ...values, created_at: now, updated_at: now })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}

/** The updated row, or undefined when the store has no such set. */
export function updateAttributeSetRow(db: Db, storeId: string, id: string, changes: { name?: string; status?: string }) {
  return db
    .updateTable('attribute_sets')
    .set({ ...changes, updated_at: new Date() })
    .where('store_id', '=', storeId)
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirst();
}

/** Before a set's delete: its attributes lose it (their attributeset becomes null, updatedAt moves). Returns their ids. */
export async function releaseSetAttributes(trx: Tx, storeId: string, setId: string): Promise<string[]> {
  const rows = await trx
    .updateTable('attributes')
    .set({ attribute_set_id: null, updated_at: new Date() })
    .where('store_id', '=', storeId)
    .where('attribute_set_id', '=', setId)
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}
