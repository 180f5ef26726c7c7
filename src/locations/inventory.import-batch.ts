import type { Tx } from '../db/index.js';
import { AppError } from '../errors.js';
import type { ImportBatchApplier, ImportBatchLine, ImportBatchResult, ImportLineOptions } from '../shared/index.js';
import { withoutIgnored } from '../shared/index.js';
import { IMPORT_REASON, type ItemLookups, itemOf, levelItem, lineChange, usableLocation, validateLine } from './inventory.import.js';
import { type ItemRow, itemsBySkus, type LocationRef, levelsAt, locationsByNames, productsByHandles } from './inventory.sql.js';
import type { InventoryLine } from './inventory-line.schema.js';
import { setLevels } from './levels.service.js';

/**
 * The inventory import's batch applier (src/shared/import-lines.ts): a batch of lines in a fixed number of
 * statements instead of ~13 per line. The batch's SKUs, handles, location names and current levels are each
 * read in one query; each line is then judged by the line handler's own rules (`itemOf`, `lineChange`: the same
 * results and errors), and the levels that change are set by one call of the `set` service (one transaction's
 * locks in its order, its totals, its events: an `inventory.updated` per changed level and a `product.updated`
 * per product whose total moved, once per batch).
 *
 * A line naming a location the store lacks (the line handler creates it and tells the job) or a level an
 * earlier line of the batch names is left to the line handler, with every line after it, so the file's order
 * holds. If `set` refuses (a product deleted meanwhile), the applier throws: the engine rolls it back and
 * applies every line of the batch one by one.
 */

type Checked = InventoryLine | AppError;

function check(line: ImportBatchLine, options: ImportLineOptions): Checked {
  try {
    return validateLine(withoutIgnored(line.value), options.handling);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

/** The batch's items and locations, each kind read in one query. */
async function batchLookups(trx: Tx, storeId: string, lines: InventoryLine[]) {
  const skus = [...new Set(lines.flatMap((line) => line.sku?.trim() || []))];
  const handles = [...new Set(lines.flatMap((line) => line.productHandle?.trim() ?? []))];
  const names = [...new Set(lines.map((line) => line.location.trim()))];
  const [items, products, locations] = [
    await itemsBySkus(trx, storeId, skus),
    await productsByHandles(trx, storeId, handles),
    await locationsByNames(trx, storeId, names),
  ];
  const bySku = new Map<string, ItemRow[]>();
  for (const { sku, ...item } of items) bySku.set(sku, [...(bySku.get(sku) ?? []), item]);
  const byHandle = new Map(products.map(({ handle, ...product }) => [handle, product]));
  const lookups: ItemLookups = { bySku: async (sku) => bySku.get(sku) ?? [], byHandle: async (handle) => byHandle.get(handle) };
  return { lookups, locations };
}

/** A line's item and location, its error, or null: its location is not in the store yet (the line handler makes it). */
async function resolve(lookups: ItemLookups, locations: Map<string, LocationRef>, line: InventoryLine) {
  try {
    const item = await itemOf(lookups, line);
    const found = locations.get(line.location.trim());
    return found ? { item, location: usableLocation(found) } : null;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

interface Planned {
  index: number;
  line: InventoryLine;
  item: ItemRow;
  location: LocationRef;
  key: string;
}

/** Each line's item and location, up to the first line left to the line handler; the results so far (the errors). */
async function planBatch(trx: Tx, storeId: string, checked: Checked[]) {
  const { lookups, locations } = await batchLookups(
    trx,
    storeId,
    checked.filter((line): line is InventoryLine => !(line instanceof AppError)),
  );
  const results: ImportBatchResult[] = checked.map((line) => (line instanceof AppError ? line : null));
  const planned: Planned[] = [];
  const named = new Set<string>();
  for (const [index, line] of checked.entries()) {
    if (line instanceof AppError) continue;
    const resolved = await resolve(lookups, locations, line);
    if (resolved instanceof AppError) {
      results[index] = resolved;
      continue;
    }
    // the first line left to the line handler: it and every line after it (only their input errors are known here)
    const key = resolved && `${resolved.item.variant_id ?? resolved.item.product_id}/${resolved.location.id}`;
    if (!resolved || !key || named.has(key)) break;
    named.add(key);
    planned.push({ index, line, ...resolved, key });
  }
  return { results, planned };
}

export const importInventoryBatch: ImportBatchApplier = async (trx, storeId, lines, options) => {
  const { results, planned } = await planBatch(
    trx,
    storeId,
    lines.map((line) => check(line, options)),
  );
  const current = await levelsAt(
    trx,
    storeId,
    planned.map(({ item, location }) => ({ itemId: item.variant_id ?? item.product_id, locationId: location.id })),
  );
  const writes = [];
  for (const { index, line, item, location, key } of planned) {
    const change = lineChange(line, current.get(key));
    results[index] = change ? change.outcome : 'unchanged';
    if (change) writes.push(levelItem(item, location.id, change.available));
  }
  if (writes.length === 0) return results;
  await setLevels(trx, storeId, { items: writes, reason: IMPORT_REASON });
  await options.afterWork.append(trx, storeId, null);
  return results;
};
