import type { Db } from '../db/index.js';
import { type Tx, withTx } from '../db/index.js';
import { found, validationError } from '../errors.js';
import { countedTotal, runList, selectByIds } from '../reads/index.js';
import { assertReference, deleteRecord, isId, iso, lockedCurrent, suppliedColumns } from '../shared/index.js';
import { listedValuesOf, toAttributeValueOutput, upsertAttributeValues } from './attribute-values.sql.js';
import type { Attribute, AttributeListQuery, CreateAttributeInput, UpdateAttributeInput } from './attributes.schema.js';
import { type AttributeRow, findAttributeRow, insertAttribute, listSpec, selectAttributes, updateAttributeRow } from './attributes.sql.js';

function checkDistinct(values: string[] | undefined): string[] | undefined {
  if (!values) return undefined;
  const trimmed = values.map((value) => value.trim());
  const seen = new Set<string>();
  const details = trimmed.flatMap((value, index) => {
    if (seen.has(value)) return [{ field: `values[${index}]`, in: 'body' as const, message: 'is listed twice' }];
    seen.add(value);
    return [];
  });
  if (details.length) throw validationError(details);
  return trimmed;
}

async function checkAttributeSet(db: Db, storeId: string, attributeSetId: string | null | undefined): Promise<void> {
  if (attributeSetId) await assertReference(db, 'attribute_sets', storeId, attributeSetId, 'attributeset');
}

/** Rows → outputs with their values, loading the values of all rows in one query. */
async function toAttributeOutputs(db: Db, storeId: string, rows: AttributeRow[], expand: boolean): Promise<Attribute[]> {
  const values = await listedValuesOf(
    db,
    storeId,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    attributeset: row.attribute_set_id,
    values: (values.get(row.id) ?? []).map((value) => (expand ? toAttributeValueOutput(value) : value.id)),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  }));
}

async function findRow(db: Db, storeId: string, id: string): Promise<AttributeRow> {
  const row = found(isId(id) && (await findAttributeRow(db, storeId, id)), 'Attribute');
  return row;
}

export function createAttribute(db: Db, storeId: string, input: CreateAttributeInput): Promise<Attribute> {
  return withTx(db, (trx) => createInTx(trx, storeId, input));
}

async function createInTx(db: Tx, storeId: string, input: CreateAttributeInput): Promise<Attribute> {
  const values = checkDistinct(input.values) ?? [];
  await checkAttributeSet(db, storeId, input.attributeset);
  const row = await insertAttribute(db, storeId, { name: input.name.trim(), attribute_set_id: input.attributeset ?? null });
  await upsertAttributeValues(db, storeId, row.id, values, 'replace');
  return (await toAttributeOutputs(db, storeId, [row], false))[0];
}

export async function getAttribute(db: Db, storeId: string, id: string, expand = false): Promise<Attribute> {
  return (await toAttributeOutputs(db, storeId, [await findRow(db, storeId, id)], expand))[0];
}

/** The store's attributes among `ids` as GET returns them (values as ids), in the order of `ids`: two statements for any number. */
export async function getAttributesByIds(db: Db, storeId: string, ids: string[]): Promise<Attribute[]> {
  const rows = await selectByIds(selectAttributes(db, storeId), ids);
  return toAttributeOutputs(db, storeId, rows, false);
}

/** If-Match's current version: the attribute as PATCH returns it (values as ids), row locked. */
export const currentAttribute = (id: string) => lockedCurrent('attributes', id, (db, storeId, rowId) => getAttribute(db, storeId, rowId));

export function updateAttribute(db: Db, storeId: string, id: string, input: UpdateAttributeInput): Promise<Attribute> {
  return withTx(db, (trx) => updateInTx(trx, storeId, id, input));
}

async function updateInTx(db: Tx, storeId: string, id: string, input: UpdateAttributeInput): Promise<Attribute> {
  await findRow(db, storeId, id);
  const values = checkDistinct(input.values);
  await checkAttributeSet(db, storeId, input.attributeset);
  const row = await updateAttributeRow(
    db,
    storeId,
    id,
    suppliedColumns({ name: input.name?.trim(), attribute_set_id: input.attributeset }),
  );
  if (values) await upsertAttributeValues(db, storeId, id, values, 'replace');
  return (await toAttributeOutputs(db, storeId, [row], false))[0];
}

export async function deleteAttribute(db: Db, storeId: string, id: string) {
  return withTx(db, (trx) => deleteRecord(trx, 'attributes', storeId, id, 'Attribute'));
}

export async function listAttributes(db: Db, storeId: string, query: AttributeListQuery) {
  const total = () => countedTotal(db, storeId, { list: 'attributes' });
  const { rows, pagination } = await runList(selectAttributes(db, storeId), query, listSpec, { db, storeId, total });
  return { data: await toAttributeOutputs(db, storeId, rows, query.expand === 'values'), pagination };
}
