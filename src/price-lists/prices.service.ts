import type { Db, Tx } from '../db/index.js';
import { type ErrorDetail, found, validationError } from '../errors.js';
import { runList } from '../reads/index.js';
import { amountDetail, decimalOf, isId, iso } from '../shared/index.js';
import { lockPriceList } from './price-lists.service.js';
import { findPriceListRow } from './price-lists.sql.js';
import type { DeletePricesInput, PriceListPrice, PriceListPricesQuery, PutPricesInput, RemovedPrice } from './prices.schema.js';
import {
  deletePrices,
  type PriceRow,
  type PriceValues,
  priceListSpec,
  selectListPrices,
  selectPricesOfItems,
  selectProductKinds,
  selectVariantProducts,
  touchPriceList,
  upsertPrices,
} from './prices.sql.js';

export function toPriceOutput(row: PriceRow): PriceListPrice {
  return {
    productId: row.product_id,
    variantId: row.variant_id,
    price: Number(row.price),
    comparePrice: row.compare_price === null ? null : Number(row.compare_price),
    updatedAt: iso(row.updated_at),
  };
}

export async function listPrices(db: Db, storeId: string, listId: string, query: PriceListPricesQuery) {
  found(isId(listId) && (await findPriceListRow(db, storeId, listId)), 'Price list');
  const base = selectListPrices(db, storeId, listId, query);
  const { rows, pagination } = await runList(base, query, priceListSpec, { db, storeId, within: [listId] });
  return { data: rows.map(toPriceOutput), pagination };
}

/** An item as a request names it. */
interface ItemRef {
  productId: string;
  variantId?: string;
}

const detail = (field: string, message: string): ErrorDetail => ({ field, in: 'body', message });

/**
 * The item (variant or simple product) each entry names; a 400 naming `items[i].…` for a product of another
 * store (or none), a variant not of the product, a product with options named without its variant, an item
 * named twice.
 */
async function itemIdsOf(db: Db, storeId: string, items: ItemRef[]): Promise<{ itemIds: string[]; details: ErrorDetail[] }> {
  const products = await selectProductKinds(db, storeId, [...new Set(items.map((item) => item.productId))]);
  const variants = await selectVariantProducts(db, storeId, [...new Set(items.flatMap((item) => item.variantId ?? []))]);
  const seen = new Map<string, number>();
  const details = items.flatMap((item, index) => {
    const at = `items[${index}]`;
    const product = products.get(item.productId);
    if (!product) return [detail(`${at}.productId`, 'must name a product of this store')];
    if (item.variantId !== undefined && variants.get(item.variantId) !== item.productId) {
      return [detail(`${at}.variantId`, 'must name a variant of the product')];
    }
    if (item.variantId === undefined && !product.simple) {
      return [detail(`${at}.variantId`, 'is required: the product has options, so its prices are per variant')];
    }
    const itemId = item.variantId ?? item.productId;
    const first = seen.get(itemId);
    seen.set(itemId, first ?? index);
    return first === undefined ? [] : [detail(`${at}.productId`, `names the same item as items[${first}]`)];
  });
  return { itemIds: items.map((item) => item.variantId ?? item.productId), details };
}

/** Each amount exact to the list's currency, comparePrice at least price. */
function amountDetails(items: PutPricesInput['items'], currency: string): ErrorDetail[] {
  return items.flatMap((item, index) => {
    const at = `items[${index}]`;
    const details = amountDetail(item.price, currency, `${at}.price`);
    if (item.comparePrice != null) {
      details.push(...amountDetail(item.comparePrice, currency, `${at}.comparePrice`));
      if (decimalOf(item.comparePrice).lessThan(decimalOf(item.price))) {
        details.push(detail(`${at}.comparePrice`, 'must be at least price'));
      }
    }
    return details;
  });
}

/** The items checked (as PUT's 400 names them) and upserted: their ids, and how many of them changed. */
async function upsertChecked(trx: Tx, storeId: string, listId: string, input: PutPricesInput, at: Date) {
  const list = await lockPriceList(trx, storeId, listId);
  const { itemIds, details } = await itemIdsOf(trx, storeId, input.items);
  details.push(...amountDetails(input.items, list.currency));
  if (details.length) throw validationError(details);
  const values: PriceValues[] = input.items.map((item, index) => ({
    itemId: itemIds[index],
    productId: item.productId,
    variantId: item.variantId ?? null,
    price: decimalOf(item.price).toString(),
    comparePrice: item.comparePrice == null ? null : decimalOf(item.comparePrice).toString(),
  }));
  return { itemIds, changed: await upsertPrices(trx, storeId, listId, values, at) };
}

/** PUT /price-lists/{id}/prices: every item's fixed price set, or none (400 naming each wrong item). */
export async function putPrices(trx: Tx, storeId: string, listId: string, input: PutPricesInput): Promise<PriceListPrice[]> {
  const at = new Date();
  const { itemIds } = await upsertChecked(trx, storeId, listId, input, at);
  await touchPriceList(trx, storeId, listId, at);
  return inOrder(await selectPricesOfItems(trx, storeId, listId, itemIds), itemIds).map((row) => toPriceOutput(row as PriceRow));
}

/**
 * PUT's write for an import line (the market columns): the list changes (its updatedAt, and the caller's
 * priceList.updated) only when a price did, so importing the same file again changes nothing. True: one did.
 */
export async function setChangedPrices(trx: Tx, storeId: string, listId: string, input: PutPricesInput): Promise<boolean> {
  const at = new Date();
  const { changed } = await upsertChecked(trx, storeId, listId, input, at);
  if (changed > 0) await touchPriceList(trx, storeId, listId, at);
  return changed > 0;
}

/** POST /price-lists/{id}/prices/delete: the items lose their fixed prices in the list. */
export async function removePrices(trx: Tx, storeId: string, listId: string, input: DeletePricesInput): Promise<RemovedPrice[]> {
  await lockPriceList(trx, storeId, listId);
  const { itemIds, details } = await itemIdsOf(trx, storeId, input.items);
  if (details.length) throw validationError(details);
  if ((await deletePrices(trx, storeId, listId, itemIds)) > 0) await touchPriceList(trx, storeId, listId, new Date());
  return input.items.map((item) => ({
    productId: item.productId,
    variantId: item.variantId ?? null,
    price: null,
    comparePrice: null,
    updatedAt: null,
  }));
}

function inOrder(rows: PriceRow[], itemIds: string[]): (PriceRow | undefined)[] {
  const byItem = new Map(rows.map((row) => [row.item_id, row]));
  return itemIds.map((id) => byItem.get(id));
}
