import type { Tx } from '../db/index.js';
import { AppError, type ErrorDetail, invalidField, validationError } from '../errors.js';
import type { ImportLineOptions, ImportLineOutcome } from '../shared/index.js';
import { compileBodyCheck, withoutIgnored } from '../shared/index.js';
import { type HandleRow, type ItemRow, itemsBySku, type LocationRef, levelAt, locationByName, productByHandle } from './inventory.sql.js';
import { InventoryLine } from './inventory-line.schema.js';
import { setLevels } from './levels.service.js';
import { createLocation } from './locations.service.js';

/** The reason an import gives the set service (like every reason, not stored: docs/decisions.md, "Inventory files"). */
export const IMPORT_REASON = 'import';

export const validateLine = compileBodyCheck(InventoryLine);
const detail = (field: string, message: string): ErrorDetail => ({ field, in: 'body', message });
const unknownItem = (field: string, message: string) => validationError([detail(field, message)], `Unknown item: ${message}`);

/** Option values as a variant keeps them: names compared case-insensitively, values exactly (trimmed). */
const sameOptions = (attributes: Record<string, string>, wanted: [string, string][]) =>
  Object.keys(attributes).length === wanted.length &&
  wanted.every(([name, value]) => Object.entries(attributes).some(([key, kept]) => key.toLowerCase() === name && kept === value));

/**
 * How a line's item is looked up: in the database, one line at a time (`lookupsIn`), or in what a batch read
 * for all its lines at once (inventory.import-batch.ts). Either way the same rules and errors (`itemOf`).
 */
export interface ItemLookups {
  /** the items with this SKU: only whether there are none, one or more counts */
  bySku(sku: string): Promise<ItemRow[]>;
  byHandle(handle: string): Promise<HandleRow | undefined>;
}

const lookupsIn = (trx: Tx, storeId: string): ItemLookups => ({
  bySku: (sku) => itemsBySku(trx, storeId, sku),
  byHandle: (handle) => productByHandle(trx, storeId, handle),
});

/** The item of `handle` with these option values: a variant, or the simple product when none are given. */
async function itemByHandle(lookups: ItemLookups, handle: string, options: Record<string, string>): Promise<ItemRow> {
  const product = await lookups.byHandle(handle);
  if (!product) throw unknownItem('productHandle', `no product of this store has the handle "${handle}"`);
  const wanted = Object.entries(options).map(([name, value]): [string, string] => [name.trim().toLowerCase(), value.trim()]);
  if (product.simple) {
    if (wanted.length === 0) return { product_id: product.id, variant_id: null };
    throw unknownItem('options', `the product "${handle}" has no options, so no variant of these values`);
  }
  if (wanted.length === 0) throw unknownItem('options', `the product "${handle}" has options: name its variant's values`);
  const variant = product.variants.find((candidate) => sameOptions(candidate.attributes, wanted));
  if (variant) return { product_id: product.id, variant_id: variant.id };
  const values = wanted.map(([name, value]) => `${name}: ${value}`).join(', ');
  throw unknownItem('options', `the product "${handle}" has no variant of ${values}`);
}

/** The line's item: by SKU when exactly one item has it, else by handle and option values. */
export async function itemOf(lookups: ItemLookups, line: InventoryLine): Promise<ItemRow> {
  const sku = line.sku?.trim();
  const bySku = sku ? await lookups.bySku(sku) : [];
  if (bySku.length === 1) return bySku[0];
  if (line.productHandle !== undefined) {
    try {
      return await itemByHandle(lookups, line.productHandle.trim(), line.options ?? {});
    } catch (error) {
      // a SKU no item has, then a handle that finds none either: the error names both, the SKU's cell first
      if (!sku || bySku.length > 0 || !(error instanceof AppError)) throw error;
      const message = error.details[0]?.message ?? error.message;
      throw unknownItem('sku', `no variant or simple product of this store has the SKU "${sku}", and ${message}`);
    }
  }
  if (bySku.length > 1) throw invalidField('sku', `more than one item has the SKU "${sku}": give productHandle and options to say which`);
  if (sku) throw unknownItem('sku', `no variant or simple product of this store has the SKU "${sku}"`);
  throw invalidField('sku', 'give the SKU of the item, or its productHandle (and options)');
}

/** A location a line names, found (the batch's, or by name): refused when it is inactive. */
export function usableLocation(found: LocationRef): LocationRef {
  if (!found.active) throw invalidField('location', `names the inactive location "${found.name}": activate it first`);
  return found;
}

/** The location of this name; created (and told) when the store has none, refused when it is inactive. */
async function locationOf(trx: Tx, storeId: string, name: string, created?: (name: string) => void): Promise<LocationRef> {
  const found = await locationByName(trx, storeId, name);
  if (found) return usableLocation(found);
  try {
    const location = await createLocation(trx, storeId, { name });
    created?.(location.name);
    return location;
  } catch (error) {
    // the store's limit of locations: the line's location could not be made
    if (error instanceof AppError && error.status === 400) throw invalidField('location', error.details[0]?.message ?? error.message);
    throw error;
  }
}

/**
 * What a line does to its level (`current`; undefined: the item has none there): nothing (null: `available`
 * null where no level is, or the value it already has), or set it to `available`, created when it had none.
 */
export function lineChange(line: InventoryLine, current: number | undefined): { available: number; outcome: ImportLineOutcome } | null {
  if (line.available === null && current === undefined) return null;
  const available = line.available ?? 0;
  if (current === available) return null;
  return { available, outcome: current === undefined ? 'created' : 'updated' };
}

/** The item of `set` for a line's level. */
export const levelItem = (item: ItemRow, locationId: string, available: number) => ({
  productId: item.product_id,
  ...(item.variant_id ? { variantId: item.variant_id } : {}),
  locationId,
  available,
});

/**
 * A line of `POST /imports?resource=inventory` (InventoryLine): the item's level at the location is set as
 * POST /inventory-levels/set sets it (the same service: its events and the totals products show), the
 * location created first when the store has none of that name. `available: null` (not stocked) makes no
 * level and sets one that exists to 0. A level created by the line counts as created, else updated; a level
 * already at the value is not written.
 */
export async function importInventoryLine(
  trx: Tx,
  storeId: string,
  value: unknown,
  _text: string,
  options: ImportLineOptions,
): Promise<ImportLineOutcome> {
  const line = validateLine(withoutIgnored(value), options.handling);
  const item = await itemOf(lookupsIn(trx, storeId), line);
  const location = await locationOf(trx, storeId, line.location.trim(), options.locationCreated);
  const current = await levelAt(trx, storeId, item.variant_id ?? item.product_id, location.id);
  const change = lineChange(line, current);
  if (!change) return 'updated';
  await setLevels(trx, storeId, { items: [levelItem(item, location.id, change.available)], reason: IMPORT_REASON });
  await options.afterWork.append(trx, storeId, null);
  return change.outcome;
}
