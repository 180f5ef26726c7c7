import type { Db } from '../db/index.js';
import { withTx } from '../db/index.js';
import { notFound } from '../errors.js';
import { isId, runList } from '../shared/index.js';
import type { AttributeSetListQuery, CreateAttributeSetInput, UpdateAttributeSetInput } from './attribute-sets.schema.js';
import {
  deleteAttributeSetRow,
  insertAttributeSet,
  listSpec,
  selectAttributeSets,
  toAttributeSetOutput,
  updateAttributeSetRow,
} from './attribute-sets.sql.js';

const missing = () => notFound('Attribute set');

export async function createAttributeSet(db: Db, storeId: string, input: CreateAttributeSetInput) {
  const row = await withTx(db, (trx) => insertAttributeSet(trx, storeId, { name: input.name.trim(), status: input.status ?? 'active' }));
  return toAttributeSetOutput(row);
}

export async function getAttributeSet(db: Db, storeId: string, id: string) {
  const row = isId(id) ? await selectAttributeSets(db, storeId).where('id', '=', id).executeTakeFirst() : undefined;
  if (!row) throw missing();
  return toAttributeSetOutput(row);
}

export async function updateAttributeSet(db: Db, storeId: string, id: string, input: UpdateAttributeSetInput) {
  if (!isId(id)) throw missing();
  const changes = {
    ...(input.name !== undefined ? { name: input.name.trim() } : {}),
    ...(input.status !== undefined ? { status: input.status } : {}),
  };
  const row = await withTx(db, (trx) => updateAttributeSetRow(trx, storeId, id, changes));
  if (!row) throw missing();
  return toAttributeSetOutput(row);
}

/** Attributes of the set stay, with `attributeset: null` (the foreign key sets it). */
export async function deleteAttributeSet(db: Db, storeId: string, id: string) {
  if (!isId(id)) throw missing();
  const row = await withTx(db, (trx) => deleteAttributeSetRow(trx, storeId, id));
  if (!row) throw missing();
  return { id: row.id };
}

export async function listAttributeSets(db: Db, storeId: string, query: AttributeSetListQuery) {
  let base = selectAttributeSets(db, storeId);
  if (query.status) base = base.where('status', '=', query.status);
  const { rows, pagination } = await runList(base, query, listSpec);
  return { data: rows.map(toAttributeSetOutput), pagination };
}
