import type { Db } from '../db/index.js';
import { type Tx, withTx } from '../db/index.js';
import { type ErrorDetail, found, invalidField, validationError } from '../errors.js';
import { runList } from '../reads/index.js';
import { currencyDetail, isId, iso, isoOrNull, lockedCurrent, minorUnits, normalizeTags, suppliedColumns } from '../shared/index.js';
import { storeCurrency } from '../stores/index.js';
import {
  type CreatePriceListInput,
  MAX_PRICE_LISTS,
  type PriceList,
  type PriceListListQuery,
  type UpdatePriceListInput,
} from './price-lists.schema.js';
import {
  deletePriceListRow,
  findPriceListRow,
  insertPriceList,
  lockPriceListRow,
  lockStorePriceLists,
  maxPriceDecimals,
  type PriceListColumns,
  type PriceListRow,
  priceListListSpec,
  selectPriceLists,
  updatePriceListRow,
} from './price-lists.sql.js';

export function toPriceListOutput(row: PriceListRow): PriceList {
  return {
    id: row.id,
    name: row.name,
    currency: row.currency,
    status: row.status as PriceList['status'],
    startsAt: isoOrNull(row.starts_at),
    endsAt: isoOrNull(row.ends_at),
    customerTags: row.customer_tags,
    adjustment:
      row.adjustment_type === null || row.adjustment_value === null
        ? null
        : { type: row.adjustment_type as NonNullable<PriceList['adjustment']>['type'], value: Number(row.adjustment_value) },
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

async function findRow(db: Db, storeId: string, id: string): Promise<PriceListRow> {
  return found(isId(id) && (await findPriceListRow(db, storeId, id)), 'Price list');
}

export async function getPriceList(db: Db, storeId: string, id: string): Promise<PriceList> {
  return toPriceListOutput(await findRow(db, storeId, id));
}

/** If-Match's current version: the list as GET returns it, row locked. */
export const currentPriceList = (id: string) => lockedCurrent('price_lists', id, getPriceList);

/** The list locked for a write of it or its prices (404 when the store has none with the id). */
export async function lockPriceList(trx: Tx, storeId: string, id: string): Promise<PriceListRow> {
  return found(isId(id) && (await lockPriceListRow(trx, storeId, id)), 'Price list');
}

export async function listPriceLists(db: Db, storeId: string, query: PriceListListQuery) {
  const { rows, pagination } = await runList(selectPriceLists(db, storeId, query), query, priceListListSpec, { db, storeId });
  return { data: rows.map(toPriceListOutput), pagination };
}

/** The input's columns (absent ones left out, so PATCH keeps them) and what is wrong with it alone. */
function columnsOf(input: UpdatePriceListInput): { columns: PriceListColumns; details: ErrorDetail[] } {
  const tags = normalizeTags(input.customerTags, 'customerTags');
  const adjustment = input.adjustment;
  const columns = suppliedColumns({
    name: input.name?.trim(),
    currency: input.currency,
    status: input.status,
    starts_at: input.startsAt === undefined ? undefined : input.startsAt && new Date(input.startsAt),
    ends_at: input.endsAt === undefined ? undefined : input.endsAt && new Date(input.endsAt),
    customer_tags: tags.tags,
    adjustment_type: adjustment === undefined ? undefined : (adjustment?.type ?? null),
    adjustment_value: adjustment === undefined ? undefined : adjustment && String(adjustment.value),
  });
  const details = [...tags.details, ...(input.currency === undefined ? [] : currencyDetail(input.currency, 'currency'))];
  return { columns, details };
}

/**
 * The rules between fields, on the list as the write would leave it: endsAt after startsAt, an adjustment only
 * in the store's currency (a percentage of a base price in another currency would be a price in the wrong one).
 */
function crossFieldDetails(after: Omit<PriceListRow, 'id' | 'created_at' | 'updated_at'>, currencyOfStore: string): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  if (after.starts_at && after.ends_at && new Date(after.ends_at) <= new Date(after.starts_at)) {
    details.push({ field: 'endsAt', in: 'body', message: 'must be after startsAt' });
  }
  if (after.adjustment_type !== null && after.currency !== currencyOfStore) {
    const message = `is allowed only in the store's currency (${currencyOfStore}); give ${after.currency} prices as fixed prices`;
    details.push({ field: 'adjustment', in: 'body', message });
  }
  return details;
}

const EMPTY_LIST = {
  status: 'active',
  starts_at: null,
  ends_at: null,
  customer_tags: [] as string[],
  adjustment_type: null,
  adjustment_value: null,
};

export function createPriceList(db: Db, storeId: string, input: CreatePriceListInput): Promise<PriceList> {
  return withTx(db, async (trx) => {
    const { columns, details } = columnsOf(input);
    const after = { ...EMPTY_LIST, ...columns, name: input.name.trim(), currency: input.currency };
    details.push(...crossFieldDetails(after as PriceListRow, await storeCurrency(trx, storeId)));
    if (details.length) throw validationError(details);
    if ((await lockStorePriceLists(trx, storeId)) >= MAX_PRICE_LISTS) {
      throw invalidField('name', `a store has at most ${MAX_PRICE_LISTS} price lists: delete one first`);
    }
    return toPriceListOutput(await insertPriceList(trx, storeId, after));
  });
}

export function updatePriceList(db: Db, storeId: string, id: string, input: UpdatePriceListInput): Promise<PriceList> {
  return withTx(db, async (trx) => {
    const before = await lockPriceList(trx, storeId, id);
    const { columns, details } = columnsOf(input);
    const after = { ...before, ...columns } as PriceListRow;
    details.push(...crossFieldDetails(after, await storeCurrency(trx, storeId)));
    if (after.currency !== before.currency && (await maxPriceDecimals(trx, storeId, id)) > minorUnits(after.currency)) {
      details.push({ field: 'currency', in: 'body', message: `the list has fixed prices with more decimals than ${after.currency} has` });
    }
    if (details.length) throw validationError(details);
    return toPriceListOutput(await updatePriceListRow(trx, storeId, id, columns));
  });
}

/** Deletes the list and its fixed prices (foreign key cascade). */
export function deletePriceList(db: Db, storeId: string, id: string): Promise<{ id: string }> {
  return withTx(db, async (trx) => {
    await lockPriceList(trx, storeId, id);
    await deletePriceListRow(trx, storeId, id);
    return { id };
  });
}
