import type { Db, Tx } from '../db/index.js';
import { AppError, type ErrorDetail, validationError } from '../errors.js';
import { noteChange, noteUpdated } from '../events/index.js';
import { runList } from '../reads/index.js';
import { iso } from '../shared/index.js';
import type { AdjustLevelsInput, InventoryLevel, LevelListQuery, SetLevelsInput } from './levels.schema.js';
import {
  type LevelKey,
  type LevelRow,
  levelListSpec,
  lockLevels,
  lockProducts,
  lockVariants,
  selectLevels,
  shareLocations,
  takeMovedLevels,
  writeLevels,
} from './levels.sql.js';

export function toLevelOutput(row: LevelRow): InventoryLevel {
  return {
    id: row.level_id,
    productId: row.product_id,
    variantId: row.variant_id,
    locationId: row.location_id,
    available: row.available,
    updatedAt: iso(row.updated_at),
  };
}

export async function listLevels(db: Db, storeId: string, query: LevelListQuery) {
  const { rows, pagination } = await runList(selectLevels(db, storeId, query), query, levelListSpec, { db, storeId });
  return { data: rows.map(toLevelOutput), pagination };
}

/** One item at one location as a request names it. */
export interface LevelItem {
  productId: string;
  variantId?: string;
  locationId: string;
}

const detail = (field: string, message: string): ErrorDetail => ({ field, in: 'body', message });
const keyText = (key: Pick<LevelKey, 'itemId' | 'locationId'>) => `${key.itemId}/${key.locationId}`;

/**
 * The level each item names, with its rows locked (products, variants, locations shared: the order of
 * levels.sql.ts); or a 400 naming `items[i].…` for every item of another store (or none), a variant that is
 * not the product's, a product with options named without its variant, an unknown or inactive location, and
 * a level named twice.
 */
async function levelKeysOf(trx: Tx, storeId: string, items: LevelItem[]): Promise<LevelKey[]> {
  const products = await lockProducts(trx, storeId, [...new Set(items.map((item) => item.productId))]);
  const variants = await lockVariants(trx, storeId, [...new Set(items.flatMap((item) => item.variantId ?? []))]);
  const { active } = await shareLocations(trx, storeId, [...new Set(items.map((item) => item.locationId))]);
  const seen = new Map<string, number>();
  const details = items.flatMap((item, index) => {
    const at = `items[${index}]`;
    const product = products.get(item.productId);
    const problems: ErrorDetail[] = [];
    if (!product) problems.push(detail(`${at}.productId`, 'must name a product of this store'));
    else if (item.variantId !== undefined && variants.get(item.variantId) !== item.productId) {
      problems.push(detail(`${at}.variantId`, 'must name a variant of the product'));
    } else if (item.variantId === undefined && !product.simple) {
      problems.push(detail(`${at}.variantId`, 'is required: the product has options, so its stock is per variant'));
    }
    const location = active.get(item.locationId);
    if (location === undefined) problems.push(detail(`${at}.locationId`, 'must name a location of this store'));
    else if (!location) problems.push(detail(`${at}.locationId`, 'names an inactive location: activate it first'));
    const key = keyText({ itemId: item.variantId ?? item.productId, locationId: item.locationId });
    const first = seen.get(key);
    if (first !== undefined && problems.length === 0) problems.push(detail(`${at}.locationId`, `names the same level as items[${first}]`));
    seen.set(key, first ?? index);
    return problems;
  });
  if (details.length) throw validationError(details);
  return items.map((item) => ({
    itemId: item.variantId ?? item.productId,
    productId: item.productId,
    variantId: item.variantId ?? null,
    locationId: item.locationId,
  }));
}

/** The levels of `keys` (created at 0 where missing), locked in item and location order; returned in the order of `keys`. */
export async function lockedLevelsOf(trx: Tx, storeId: string, keys: LevelKey[], at: Date): Promise<LevelRow[]> {
  const sorted = [...new Map(keys.map((key) => [keyText(key), key])).values()].sort((a, b) =>
    a.itemId === b.itemId ? (a.locationId < b.locationId ? -1 : 1) : a.itemId < b.itemId ? -1 : 1,
  );
  const rows = await lockLevels(trx, storeId, sorted, at);
  const byKey = new Map(rows.map((row) => [keyText({ itemId: row.item_id, locationId: row.location_id }), row]));
  return keys.map((key) => byKey.get(keyText(key)) as LevelRow);
}

/**
 * Sets each level to its new value and notes the events: `inventory.updated` per level that changed, and
 * `product.updated` for their products (their stock or totalStock changed). The levels as they now are.
 */
export async function commitLevels(trx: Tx, storeId: string, current: LevelRow[], values: number[], at: Date): Promise<InventoryLevel[]> {
  const writes = current.flatMap((row, index) =>
    row.available === values[index] ? [] : [{ itemId: row.item_id, locationId: row.location_id, available: values[index] }],
  );
  const changed = await writeLevels(trx, storeId, writes, at);
  const byKey = new Map(changed.map((row) => [keyText({ itemId: row.item_id, locationId: row.location_id }), row]));
  noteLevels(trx, changed);
  noteUpdated(trx, storeId, 'product', new Set(changed.map((row) => row.product_id)));
  return current.map((row) => toLevelOutput(byKey.get(keyText({ itemId: row.item_id, locationId: row.location_id })) ?? row));
}

/** One `inventory.updated` per level, its data the level as GET /inventory-levels shows it (noted by its id: once per write). */
function noteLevels(trx: Tx, rows: LevelRow[]): void {
  for (const row of rows) {
    const level = toLevelOutput(row);
    noteChange(trx, 'inventory.updated', row.level_id, async () => level);
  }
}

/**
 * Notes an `inventory.updated` for every level the database moved in this transaction without the app
 * naming it: a total written through a product or variant row sets the default location's level
 * (migrations 0114, 0124). Product writes that may write a total call it once, at the end of their work.
 */
export async function noteMovedLevels(trx: Tx, storeId: string): Promise<void> {
  noteLevels(trx, await takeMovedLevels(trx, storeId));
}

/** POST /inventory-levels/set: every item's new value, or none (409 INVENTORY_CHANGED per stale compareAvailable). */
export async function setLevels(trx: Tx, storeId: string, input: SetLevelsInput): Promise<InventoryLevel[]> {
  const at = new Date();
  const keys = await levelKeysOf(trx, storeId, input.items);
  const current = await lockedLevelsOf(trx, storeId, keys, at);
  const stale = input.items.flatMap((item, index) =>
    item.compareAvailable === undefined || item.compareAvailable === current[index].available
      ? []
      : [detail(`items[${index}].compareAvailable`, `the level is at ${current[index].available} now, not ${item.compareAvailable}`)],
  );
  if (stale.length) {
    throw new AppError(409, 'INVENTORY_CHANGED', 'An inventory level changed since it was read: nothing changed; read it again', stale);
  }
  return commitLevels(
    trx,
    storeId,
    current,
    input.items.map((item) => item.available),
    at,
  );
}

/** POST /inventory-levels/adjust: every delta, or none (409 INSUFFICIENT_STOCK per item it would take below 0). */
export async function adjustLevels(trx: Tx, storeId: string, input: AdjustLevelsInput): Promise<InventoryLevel[]> {
  const at = new Date();
  const keys = await levelKeysOf(trx, storeId, input.items);
  const current = await lockedLevelsOf(trx, storeId, keys, at);
  const values = input.items.map((item, index) => current[index].available + item.delta);
  const short = input.allowNegative
    ? []
    : input.items.flatMap((item, index) =>
        values[index] >= 0
          ? []
          : [detail(`items[${index}].delta`, `the level has ${current[index].available} available; ${item.delta} would take it below 0`)],
      );
  if (short.length) throw new AppError(409, 'INSUFFICIENT_STOCK', 'Not enough stock for every item: nothing changed', short);
  return commitLevels(trx, storeId, current, values, at);
}
