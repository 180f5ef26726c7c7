import type { Db } from '../db/index.js';
import { withTx } from '../db/index.js';
import { found } from '../errors.js';
import { noteUpdated } from '../events/index.js';
import { countedTotal, runList, selectByIds } from '../reads/index.js';
import { deleteRecord, isId, lockedCurrent, suppliedColumns } from '../shared/index.js';
import type { AttributeSetListQuery, CreateAttributeSetInput, UpdateAttributeSetInput } from './attribute-sets.schema.js';
import {
  findAttributeSetRow,
  insertAttributeSet,
  listSpec,
  releaseSetAttributes,
  selectAttributeSetList,
  selectAttributeSets,
  toAttributeSetOutput,
  updateAttributeSetRow,
} from './attribute-sets.sql.js';

export async function createAttributeSet(db: Db, storeId: string, input: CreateAttributeSetInput) {
  const row = await withTx(db, (trx) => insertAttributeSet(trx, storeId, { name: input.name.trim(), status: input.status ?? 'active' }));
  return toAttributeSetOutput(row);
}

export async function getAttributeSet(db: Db, storeId: string, id: string) {
  const row = found(isId(id) && (await findAttributeSetRow(db, storeId, id)), 'Attribute set');
  return toAttributeSetOutput(row);
}

/** The store's attribute sets among `ids` as GET returns them, in the order of `ids`, in one statement. */
export async function getAttributeSetsByIds(db: Db, storeId: string, ids: string[]) {
  const rows = await selectByIds(selectAttributeSets(db, storeId), ids);
  return rows.map(toAttributeSetOutput);
}

/** If-Match's current version: the set as GET returns it, row locked. */
export const currentAttributeSet = (id: string) => lockedCurrent('attribute_sets', id, getAttributeSet);

export async function updateAttributeSet(db: Db, storeId: string, id: string, input: UpdateAttributeSetInput) {
  const changes = suppliedColumns({ name: input.name?.trim(), status: input.status });
  const row = isId(id) && (await withTx(db, (trx) => updateAttributeSetRow(trx, storeId, id, changes)));
  return toAttributeSetOutput(found(row, 'Attribute set'));
}

/** Attributes of the set stay, with `attributeset: null` (the foreign key sets it). */
export async function deleteAttributeSet(db: Db, storeId: string, id: string) {
  return withTx(db, async (trx) => {
    // the foreign key's SET NULL would change its attributes silently: no updatedAt, no events
    if (isId(id)) noteUpdated(trx, storeId, 'attribute', await releaseSetAttributes(trx, storeId, id));
    return deleteRecord(trx, 'attribute_sets', storeId, id, 'Attribute set');
  });
}

export async function listAttributeSets(db: Db, storeId: string, query: AttributeSetListQuery) {
  const base = selectAttributeSetList(db, storeId, query.status);
  const total = () => countedTotal(db, storeId, { list: 'attribute_sets', status: query.status });
  const { rows, pagination } = await runList(base, query, listSpec, { db, storeId, total });
  return { data: rows.map(toAttributeSetOutput), pagination };
}
